import { forbidden, notFound } from '../../errors/app-error.ts';
import { type Caller, canAddMember, hasListUsers, isCommunityModerator } from '../auth/index.ts';
import { type UserItem, userIdsByNamePrefix } from '../users/index.ts';
import { findMembershipsAndUsers } from './space-candidate-repository.ts';
import { findSpaceWithMembership } from './space-lookups.ts';

/** The contract's limit: at most 100 candidates, one page. */
export const SPACE_USER_SEARCH_LIMIT = 100;
/** Index entries read per Query page (each page costs one Query and one BatchGetItem of memberships). */
const ENTRIES_PER_PAGE = 100;
/**
 * Index entries read at most per search. Members are skipped as they are found, so a search whose matches are
 * mostly members of the space reads on until this bound and then answers the candidates found so far.
 */
export const SPACE_USER_SEARCH_MAX_ENTRIES = 5_000;

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
}

const matches = (user: UserItem, prefix: string): boolean =>
  [user.display_name, user.username, user.email].some((value) => value.toLowerCase().startsWith(prefix));

/**
 * `GET /spaces/users/search`: active host users who are not members of the space (no membership in any status), whose
 * display name, login or e-mail starts with `search` (case-insensitive), at most 100, in the order of the matched
 * value. Served by the user search index page by page; each page's distinct users are checked against the space
 * with one BatchGetItem of their membership items (never the space's member list), and read with one more (the
 * entry may be older than a rename: the user's current fields decide).
 *
 * The permission is decided before the space is looked up, so a caller who may not add members learns nothing
 * about which spaces exist (403 whatever the id); a caller who may (global admins) gets 404 for an unknown space.
 */
export async function searchSpaceUsers(
  caller: Caller,
  query: { space_id: number; search?: string | undefined; page?: number; per_page?: number },
): Promise<SpaceUserSearch> {
  const prefix = query.search?.trim().toLowerCase() || undefined;
  // The space check and the first index page are independent: one round for both (a refused caller costs a page).
  const pages = userIdsByNamePrefix(prefix, ENTRIES_PER_PAGE)[Symbol.asyncIterator]();
  const [{ space, membership }, first] = await Promise.all([
    findSpaceWithMembership(query.space_id, caller.id),
    pages.next(),
  ]);
  if (!canAddMember(caller, membership)) {
    throw forbidden('Sorry, you are not allowed to add members to this space.');
  }
  if (!space) throw notFound('not_found', 'No space has this id.');

  const showEmail = isCommunityModerator(caller) && hasListUsers(caller);
  const seen = new Set<number>();
  const found: SpaceUserCandidate[] = [];
  let entriesRead = 0;
  for (let page = first; !page.done; page = await pages.next()) {
    const userIds = page.value;
    entriesRead += userIds.length;
    // A user matching on several fields has several entries, on one page or across pages: keep the first.
    const fresh: number[] = [];
    for (const id of userIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      fresh.push(id);
    }
    // Memberships and user items in one BatchGetItem (per 50 users): members' items are read for nothing, in
    // exchange for a call and a round.
    const { memberships, users } = await findMembershipsAndUsers(space.id, fresh);
    const outsiders = fresh.filter((id) => !memberships.has(id));
    for (const id of outsiders) {
      const user = users.get(id);
      // A suspended or banned account is no candidate (nobody can act with it); the user item decides.
      if (user?.status !== 'active' || (prefix !== undefined && !matches(user, prefix))) continue;
      found.push({
        ID: user.id,
        display_name: user.display_name,
        photo: user.avatar,
        user_email: showEmail ? user.email : null,
      });
      if (found.length === SPACE_USER_SEARCH_LIMIT) break;
    }
    if (found.length === SPACE_USER_SEARCH_LIMIT || entriesRead >= SPACE_USER_SEARCH_MAX_ENTRIES) {
      await pages.return?.(undefined);
      break;
    }
  }
  // The candidates are at most 100 whatever the page, so `total` is exact and a page is a slice of them.
  const page = query.page ?? 1;
  const perPage = query.per_page ?? SPACE_USER_SEARCH_LIMIT;
  const items = found.slice((page - 1) * perPage, page * perPage);
  return { items, total: found.length, page, perPage };
}
