import { type Caller, isOwnerOrModerator, isSpaceMember } from '../auth/index.ts';
import { findVisibleContent } from '../feeds/index.ts';
import {
  countMemberMedia,
  findMediaCounters,
  type MediaItem,
  type MediaListFilter,
  type MediaListItem,
  queryMemberMediaPage,
  toMediaListItem,
} from '../media/index.ts';
import { findMemberships, findSpacesByIds } from '../spaces/index.ts';
import { loadReadableProfile } from './profile-user.ts';

export interface ListProfileMediaInput {
  readonly page: number;
  readonly per_page: number;
  readonly file_type?: string | undefined;
  readonly object_source?: string | undefined;
}

export interface MediaPage {
  data: MediaListItem[];
  meta: { total: number; per_page: number; current_page: number };
}

/**
 * `GET /profile/{username}/media` (paginator D), newest first (decisions.md "Users, profiles and roles"): a caller
 * sees an item only if it could see the object the item is attached to; unattached items only the uploader and
 * community moderators. For them `meta.total` is exact from the uploader's counters. For other callers the list is
 * the member's attached media, and an item whose object the caller may not see is left out of `data` (so a page
 * may hold fewer than `per_page`); `meta.total` counts the attached media of the filter.
 */
export async function listProfileMedia(
  caller: Caller,
  username: string,
  input: ListProfileMediaInput,
): Promise<MediaPage> {
  const { user } = await loadReadableProfile(caller, username);
  const everything = isOwnerOrModerator(caller, user.id);
  const filter: MediaListFilter = {
    userId: user.id,
    fileType: input.file_type,
    objectSource: input.object_source,
    attachedOnly: !everything,
  };
  const total = await totalOf(filter, await findMediaCounters(user.id));
  const found = await queryMemberMediaPage(filter, { page: input.page, perPage: input.per_page, total });
  const items = everything ? found.items : await visibleItems(caller, found.items);
  return {
    data: items.map(toMediaListItem),
    meta: { total, per_page: input.per_page, current_page: input.page },
  };
}

async function totalOf(filter: MediaListFilter, counters: Record<string, number>): Promise<number> {
  const { fileType, objectSource } = filter;
  if (fileType !== undefined && (objectSource !== undefined || filter.attachedOnly)) {
    return countMemberMedia(filter);
  }
  if (fileType !== undefined) return counters[`media_type:${fileType}`] ?? 0;
  if (objectSource !== undefined) return counters[`media_source:${objectSource}`] ?? 0;
  if (!filter.attachedOnly) return counters.media_total ?? 0;
  return Object.entries(counters)
    .filter(([name]) => name.startsWith('media_source:'))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** The items attached to something the caller may see (profiles are visible to whoever reads the profile). */
async function visibleItems(caller: Caller, items: readonly MediaItem[]): Promise<MediaItem[]> {
  const idsOf = (source: string) =>
    items.flatMap((item) =>
      item.object_source === source && item.object_id !== null ? [item.object_id] : [],
    );
  const spaceIds = idsOf('space');
  const [content, spaces, memberships] = await Promise.all([
    findVisibleContent(caller, { feedIds: idsOf('feed'), commentIds: idsOf('comment') }),
    findSpacesByIds(spaceIds),
    findMemberships(spaceIds, caller.id),
  ]);
  const spaceVisible = (spaceId: number) => {
    const space = spaces.get(spaceId);
    return (
      space !== undefined && (space.privacy !== 'secret' || isSpaceMember(caller, memberships.get(spaceId)))
    );
  };
  return items.filter((item) => {
    if (item.object_source === 'profile') return true;
    if (item.object_id === null) return false;
    if (item.object_source === 'feed') return content.feeds.has(item.object_id);
    if (item.object_source === 'comment') return content.comments.has(item.object_id);
    if (item.object_source === 'space') return spaceVisible(item.object_id);
    return false;
  });
}
