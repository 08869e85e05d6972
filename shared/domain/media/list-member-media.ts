import { type Caller, isOwnerOrModerator, isSpaceMember } from '../auth/index.ts';
import { findMemberships } from '../spaces/index.ts';
import { filterVisibleMedia } from './media-attachments.ts';
import { type MediaListItem, toMediaListItem } from './media-list-mapper.ts';
import {
  countMemberMedia,
  findMediaCounters,
  type MediaListFilter,
  MAX_MEDIA_FILTER_SPACES,
  queryMemberMediaPage,
} from './media-repository.ts';
import { withServedUrls } from './media-urls.ts';

export interface MemberMediaInput {
  readonly page: number;
  readonly per_page: number;
  readonly file_type?: string | undefined;
  readonly object_source?: string | undefined;
}

export interface MemberMediaPage {
  data: MediaListItem[];
  meta: { total: number; per_page: number; current_page: number };
}

/**
 * A member's media as `GET /profile/{username}/media` lists them (paginator D), newest first (decisions.md "Users,
 * profiles and roles"): a caller sees an item only if it could see the object the item is attached to; unattached
 * items only the uploader and community moderators. The uploader and moderators get everything, counted by `media_total`, `media_type:<t>`,
 * `media_source:<s>`. Anyone else gets the items whose scope it may see (media-scope.ts: `public`, and `members` of
 * its spaces), selected by the page's FilterExpression and counted by the `media_scope…` counters of those scopes,
 * so `meta.total` is exact for the caller (issue 21, item 4) and page 1 costs the same at any size. Each page is
 * then checked against the objects as they are now (media-attachments.ts), which drops only media whose object was
 * deleted or hidden after the item was attached.
 */
export async function listMemberMedia(
  caller: Caller,
  userId: number,
  input: MemberMediaInput,
): Promise<MemberMediaPage> {
  const counters = await findMediaCounters(userId);
  const everything = isOwnerOrModerator(caller, userId);
  const memberSpaceIds = everything ? [] : await visibleMemberSpaces(caller, counters);
  const filter: MediaListFilter = {
    userId,
    fileType: input.file_type,
    objectSource: input.object_source,
    visibleIn: everything ? undefined : { memberSpaceIds },
  };
  const total = await totalOf(filter, counters);
  const found = await queryMemberMediaPage(filter, { page: input.page, perPage: input.per_page, total });
  const items = await filterVisibleMedia(caller, found.items);
  const served = await Promise.all(items.map(withServedUrls));
  return {
    data: served.map(toMediaListItem),
    meta: { total, per_page: input.per_page, current_page: input.page },
  };
}

/** `m<sid>` scopes counted on the uploader's stats whose space the caller is a member of (one BatchGetItem). */
async function visibleMemberSpaces(caller: Caller, counters: Record<string, number>): Promise<number[]> {
  const counted = new Map<number, number>();
  for (const [name, count] of Object.entries(counters)) {
    const match = /^media_scope:m(\d+)$/.exec(name);
    if (match && count > 0) counted.set(Number(match[1]), count);
  }
  if (counted.size === 0) return [];
  const memberships = await findMemberships([...counted.keys()], caller.id);
  return [...counted]
    .filter(([spaceId]) => isSpaceMember(caller, memberships.get(spaceId)))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_MEDIA_FILTER_SPACES)
    .map(([spaceId]) => spaceId);
}

async function totalOf(filter: MediaListFilter, counters: Record<string, number>): Promise<number> {
  const { fileType, objectSource, visibleIn } = filter;
  if (fileType !== undefined && objectSource !== undefined) return countMemberMedia(filter);
  if (visibleIn === undefined) {
    if (fileType !== undefined) return counters[`media_type:${fileType}`] ?? 0;
    if (objectSource !== undefined) return counters[`media_source:${objectSource}`] ?? 0;
    return counters.media_total ?? 0;
  }
  const scopes = ['p', ...visibleIn.memberSpaceIds.map((spaceId) => `m${spaceId}`)];
  const name = (scope: string) =>
    fileType !== undefined
      ? `media_scope_type:${fileType}|${scope}`
      : objectSource !== undefined
        ? `media_scope_source:${objectSource}|${scope}`
        : `media_scope:${scope}`;
  return scopes.reduce((sum, scope) => sum + (counters[name(scope)] ?? 0), 0);
}
