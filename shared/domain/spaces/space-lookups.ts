import { membershipKey, spaceKey, spaceStatsKey, userMemberships } from '../../db/keys/spaces.ts';
import { itemRead, type KeyedRead } from '../../db/read-together.ts';
import { batchGetItems, getItem, getItems, parseItem, queryAll } from '../../db/reads.ts';
import * as v from 'valibot';
import { type MembershipItem, MembershipItemSchema, type SpaceItem, SpaceItemSchema } from './space-item.ts';

/**
 * The spaces domain's public reads (ACCESS_PATTERNS.md, "Spaces"): spaces, courses and memberships, one function
 * per access pattern, alone or as reads to send with others in one BatchGetItem. The answers are parsed (no keys),
 * never stored items; other domains read spaces only through these.
 */

export function findSpaceById(spaceId: number): Promise<SpaceItem | undefined> {
  return getItem(spaceKey(spaceId), SpaceItemSchema);
}

/** `findSpaceById` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const spaceRead = (spaceId: number, options: { consistent?: boolean } = {}) =>
  itemRead(spaceKey(spaceId), SpaceItemSchema, options);

/** `findMembership` as a read to send with others in one BatchGetItem. */
export const membershipRead = (spaceId: number, userId: number, options: { consistent?: boolean } = {}) =>
  itemRead(membershipKey(spaceId, userId), MembershipItemSchema, options);

/** Many spaces by id (BatchGetItem); unknown ids are absent from the map. */
export async function findSpacesByIds(spaceIds: readonly number[]): Promise<Map<number, SpaceItem>> {
  if (spaceIds.length === 0) return new Map();
  const spaces = await batchGetItems([...new Set(spaceIds)].map(spaceKey), SpaceItemSchema);
  return new Map(spaces.map((space) => [space.id, space]));
}

/** A space and one user's membership of it in one round trip (BatchGetItem): the permission read. */
export async function findSpaceWithMembership(
  spaceId: number,
  userId: number,
): Promise<{ space: SpaceItem | undefined; membership: MembershipItem | undefined }> {
  const [space, membership] = await getItems<[SpaceItem, MembershipItem]>([
    { key: spaceKey(spaceId), schema: SpaceItemSchema },
    { key: membershipKey(spaceId, userId), schema: MembershipItemSchema },
  ]);
  return { space, membership };
}

/** The caller's membership of one space or course (any status); undefined when none. */
export function findMembership(
  spaceId: number,
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<MembershipItem | undefined> {
  return getItem(membershipKey(spaceId, userId), MembershipItemSchema, options);
}

/** A user's memberships of many spaces in one BatchGetItem (visibility checks of a page of feeds). */
export async function findMemberships(
  spaceIds: readonly number[],
  userId: number,
): Promise<Map<number, MembershipItem>> {
  if (spaceIds.length === 0) return new Map();
  const keys = [...new Set(spaceIds)].map((spaceId) => membershipKey(spaceId, userId));
  const memberships = await batchGetItems(keys, MembershipItemSchema);
  return new Map(memberships.map((membership) => [membership.space_id, membership]));
}

/**
 * The ids of the spaces and courses a user actively belongs to (Query of the sparse membership index, every
 * page): O(the user's memberships), whatever the size of the spaces. Feed lists use it to decide visibility.
 */
export async function findActiveMembershipSpaceIds(userId: number): Promise<number[]> {
  const ids: number[] = [];
  for await (const batch of queryAll(userMemberships(userId), MembershipItemSchema, { pageSize: 500 })) {
    for (const membership of batch) if (membership.status === 'active') ids.push(membership.space_id);
  }
  return ids;
}

/**
 * The active memberships of a user (Query of the sparse membership index, every page), in joining order: the
 * profile's space list. O(the user's memberships).
 */
export async function findActiveMemberships(userId: number): Promise<MembershipItem[]> {
  const found: MembershipItem[] = [];
  for await (const batch of queryAll(userMemberships(userId), MembershipItemSchema, { pageSize: 500 })) {
    found.push(...batch.filter((membership) => membership.status === 'active'));
  }
  return found;
}

/** Many users' memberships of one space in one BatchGetItem (who of the mentioned users may see a feed). */
export async function findMembershipsOfUsers(
  spaceId: number,
  userIds: readonly number[],
): Promise<Map<number, MembershipItem>> {
  if (userIds.length === 0) return new Map();
  const keys = [...new Set(userIds)].map((userId) => membershipKey(spaceId, userId));
  const memberships = await batchGetItems(keys, MembershipItemSchema);
  return new Map(memberships.map((membership) => [membership.user_id, membership]));
}

/** The counters on a space's stats item (members_count, posts_count; courses add theirs), 0 when absent. */
const SpaceStatsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw) =>
    Object.fromEntries(
      Object.entries(raw).flatMap(([name, value]) => (typeof value === 'number' ? [[name, value]] : [])),
    ),
  ),
);

export async function findSpaceStats(spaceId: number): Promise<Record<string, number>> {
  return (await getItem(spaceStatsKey(spaceId), SpaceStatsItemSchema)) ?? {};
}

/**
 * Many spaces with their stats items and one user's memberships of them, as a read to send with others in one
 * BatchGetItem (shared/db/read-together.ts; several past 100 keys): a profile's space list. Absent items are absent
 * from the maps.
 */
export function spacesWithStatsAndMembershipsRead(
  spaceIds: readonly number[],
  userId: number,
): KeyedRead<{
  spaces: Map<number, SpaceItem>;
  stats: Map<number, Record<string, number>>;
  memberships: Map<number, MembershipItem>;
}> {
  const ids = [...new Set(spaceIds)];
  return {
    keys: ids.flatMap((spaceId) => [
      spaceKey(spaceId),
      spaceStatsKey(spaceId),
      membershipKey(spaceId, userId),
    ]),
    settle: (found) => {
      const spaces = new Map<number, SpaceItem>();
      const stats = new Map<number, Record<string, number>>();
      const memberships = new Map<number, MembershipItem>();
      for (const spaceId of ids) {
        const space = found.get(spaceKey(spaceId));
        const counters = found.get(spaceStatsKey(spaceId));
        const membership = found.get(membershipKey(spaceId, userId));
        if (space) spaces.set(spaceId, parseItem(SpaceItemSchema, space));
        if (counters) stats.set(spaceId, parseItem(SpaceStatsItemSchema, counters));
        if (membership) memberships.set(spaceId, parseItem(MembershipItemSchema, membership));
      }
      return { spaces, stats, memberships };
    },
  };
}

/** A membership with the migration run that wrote it, if one did (`migration_run`, absent on the platform's own). */
export type MembershipWithRun = MembershipItem & { readonly migration_run?: string | undefined };

const MembershipWithRunSchema = v.object({
  ...MembershipItemSchema.entries,
  migration_run: v.optional(v.string()),
});

/**
 * Many (space, user) memberships in one strongly consistent BatchGetItem per 100, with the run that migrated each:
 * the migration decides from it whether a membership is its own (counted) or the platform's (left as it is).
 * Keyed `<space_id>:<user_id>`; absent ones are absent.
 */
export async function findMembershipsWithRun(
  pairs: readonly { readonly spaceId: number; readonly userId: number }[],
): Promise<Map<string, MembershipWithRun>> {
  if (pairs.length === 0) return new Map();
  const found = await batchGetItems(
    pairs.map(({ spaceId, userId }) => membershipKey(spaceId, userId)),
    MembershipWithRunSchema,
    { consistent: true },
  );
  return new Map(found.map((membership) => [`${membership.space_id}:${membership.user_id}`, membership]));
}
