import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../../db/cursor.ts';
import { forbidden, invalidParams, notFound } from '../../errors/app-error.ts';
import { type Caller, canAddMember, hasListUsers, isCommunityModerator } from '../auth/index.ts';
import { type SearchedUser, type UserSearchEntry, userSearchWindow } from '../users/index.ts';
import { findSpaceAndCandidates } from './space-candidate-repository.ts';

/** The contract's limit: at most 100 candidates in all. */
export const SPACE_USER_SEARCH_LIMIT = 100;
/**
 * Distinct users one request examines at most: enough for the 100 candidates of a full answer, and what one round
 * of two batches checks (a membership key a user, plus the space and the caller's membership: 102 keys).
 */
export const SPACE_USER_SEARCH_WINDOW = 100;
/** Index entries one window's Query reads: a user has up to three (name, login, e-mail). */
const WINDOW_ENTRIES = 3 * SPACE_USER_SEARCH_WINDOW;

export interface SpaceUserCandidate {
  ID: number;
  display_name: string;
  photo: string;
  /** Only for community moderators who also hold the host `list_users` capability; null otherwise. */
  user_email: string | null;
}

export interface SpaceUserSearch {
  readonly items: SpaceUserCandidate[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  /** Where the next page starts when the list goes on past what this request settled (`next_page_url`). */
  readonly nextCursor: string | null;
  /** The list goes on after this page, whatever `total` says of the pages known so far. */
  readonly more: boolean;
}

const matches = (value: string, prefix: string | undefined): boolean =>
  prefix === undefined || value.toLowerCase().startsWith(prefix);

/**
 * The entry a user is listed at: the smallest of their current fields (display name, login, e-mail, lower-cased)
 * that match, the first such field on a tie. Each window lists a user only at that entry, so a user matching on
 * several fields is listed once across windows without remembering who was listed, and an entry older than a
 * rename lists nobody.
 */
function listedAt(
  user: SearchedUser,
  prefix: string | undefined,
): { field: string; value: string } | undefined {
  const fields = [
    { field: 'name', value: user.display_name.toLowerCase() },
    { field: 'login', value: user.username.toLowerCase() },
    { field: 'email', value: user.email.toLowerCase() },
  ].filter(({ value }) => matches(value, prefix));
  return fields.reduce<{ field: string; value: string } | undefined>(
    (least, candidate) => (least === undefined || candidate.value < least.value ? candidate : least),
    undefined,
  );
}

/** What a cursor of this search carries: the index position to resume after, and how many were listed before. */
interface Resume {
  readonly after: Record<string, string>;
  readonly listed: number;
}

const fingerprintOf = (spaceId: number, prefix: string | undefined, perPage: number): string =>
  createHash('sha256')
    .update(JSON.stringify(['space-user-search', spaceId, prefix ?? null, perPage]))
    .digest('base64url')
    .slice(0, 16);

async function resumeOf(
  cursor: string | undefined,
  fingerprint: string,
  page: number,
): Promise<Resume | undefined> {
  if (cursor === undefined) return undefined;
  const decoded = await decodeCursor(cursor);
  if (!decoded) throw invalidParams({ cursor: 'is not a cursor from next_page_url' });
  if (Array.isArray(decoded.lastKey) || decoded.query !== fingerprint || decoded.page !== page)
    return undefined;
  return { after: decoded.lastKey, listed: decoded.listed ?? 0 };
}

/**
 * `GET /spaces/users/search`: active host users who are not members of the space (no membership in any status), whose
 * display name, login or e-mail starts with `search` (case-insensitive), at most 100, in the order of the matched
 * value.
 *
 * One request reads one window of the user search index (one Query), whose entries carry what the answer needs of
 * each user (fields, photo, status: `SearchedUser`, kept true by every write of them), and checks its first 100
 * distinct users against the space with their membership items, in two BatchGetItems side by side with the space and
 * the caller's membership (the permission): 2 rounds and at most 3 reads whatever the index or the space holds,
 * never the space's member list nor a user item (an entry written before entries carried the user, until
 * `storage:upgrade`, has its user item read in the same round). The user's fields as carried decide which of
 * their entries lists them (`listedAt`). When the window settles the
 * list (the index ends in it, or 100 candidates are found) `total` is exact and pages are slices of it, as a
 * length-aware paginator promises. When it does not (members of the space or inactive accounts fill the window),
 * the page answers what the window found and `next_page_url` carries a cursor that resumes the index where this page
 * ended; `total` then counts the candidates listed so far, and `more` tells the paginator to offer the next page.
 *
 * The permission is decided before the space's existence, so a caller who may not add members learns nothing about
 * which spaces exist (403 whatever the id); a caller who may (global admins) gets 404 for an unknown space.
 */
export async function searchSpaceUsers(
  caller: Caller,
  query: {
    space_id: number;
    search?: string | undefined;
    page?: number;
    per_page?: number;
    cursor?: string | undefined;
  },
): Promise<SpaceUserSearch> {
  const prefix = query.search?.trim().toLowerCase() || undefined;
  const page = query.page ?? 1;
  const perPage = query.per_page ?? SPACE_USER_SEARCH_LIMIT;
  const fingerprint = fingerprintOf(query.space_id, prefix, perPage);
  const resume = await resumeOf(query.cursor, fingerprint, page);

  const window = await userSearchWindow(prefix, WINDOW_ENTRIES, resume?.after);
  const { entries, next } = firstUsersOf(window.entries, window.next);
  const { space, membership, memberships, users } = await findSpaceAndCandidates(
    query.space_id,
    caller.id,
    entries.map((entry) => entry.userId),
    entries.filter((entry) => entry.user === undefined).map((entry) => entry.userId),
  );
  if (!canAddMember(caller, membership)) {
    throw forbidden('Sorry, you are not allowed to add members to this space.');
  }
  if (!space) throw notFound('not_found', 'No space has this id.');

  const showEmail = isCommunityModerator(caller) && hasListUsers(caller);
  const listedBefore = resume?.listed ?? 0;
  const room = Math.max(0, SPACE_USER_SEARCH_LIMIT - listedBefore);
  const found: { candidate: SpaceUserCandidate; entry: UserSearchEntry }[] = [];
  for (const entry of entries) {
    if (found.length === room) break;
    const user = entry.user ?? users.get(entry.userId);
    // A suspended or banned account is no candidate (nobody can act with it); the status the entry carries decides.
    if (!user || memberships.has(entry.userId) || user.status !== 'active') continue;
    const at = listedAt(user, prefix);
    if (at?.field !== entry.field || at.value !== entry.value) continue;
    found.push({
      entry,
      candidate: {
        ID: user.id,
        display_name: user.display_name,
        photo: user.avatar,
        user_email: showEmail ? user.email : null,
      },
    });
  }
  const settled = found.length === room || next === undefined;

  // A resumed page starts at the window; a first request pages the window's candidates by number.
  const skip = resume ? 0 : (page - 1) * perPage;
  const shown = found.slice(skip, skip + perPage);
  const last = shown.at(-1);
  const beyondPage = found.length > skip + perPage;
  const more = !settled || (resume !== undefined && beyondPage);
  const after = beyondPage && last ? last.entry.position : next;
  const nextCursor =
    (more || beyondPage) && after
      ? await encodeCursor({
          lastKey: after,
          page: page + 1,
          query: fingerprint,
          listed: listedBefore + Math.min(found.length, skip + shown.length),
        })
      : null;
  const total = resume ? listedBefore + found.length : found.length;
  return { items: shown.map(({ candidate }) => candidate), total, page, perPage, nextCursor, more };
}

/**
 * The window's entries up to its 100th distinct user (the first entry of a 101st ends it), and where the index goes
 * on after them: the last kept entry when the window was cut, else where the Query stopped.
 */
function firstUsersOf(
  entries: readonly UserSearchEntry[],
  next: Record<string, string> | undefined,
): { entries: UserSearchEntry[]; next: Record<string, string> | undefined } {
  const users = new Set<number>();
  const kept: UserSearchEntry[] = [];
  for (const entry of entries) {
    if (!users.has(entry.userId) && users.size === SPACE_USER_SEARCH_WINDOW) {
      return { entries: kept, next: kept.at(-1)?.position };
    }
    users.add(entry.userId);
    kept.push(entry);
  }
  return { entries: kept, next };
}
