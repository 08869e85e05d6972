import { membershipKey } from '../../db/keys/spaces.ts';
import { itemsRead, noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { type UserItem, usersByIdsRead } from '../users/index.ts';
import { type MembershipItem, MembershipItemSchema, type SpaceItem } from './space-item.ts';
import { membershipRead, spaceRead } from './space-lookups.ts';

/** Keys per BatchGetItem. */
const KEYS_PER_BATCH = 100;

export interface CandidateCheck {
  readonly space: SpaceItem | undefined;
  /** The caller's own membership of the space (the permission). */
  readonly membership: MembershipItem | undefined;
  /** The users' memberships of the space, by user id. */
  readonly memberships: Map<number, MembershipItem>;
  /** The users read (`usersToRead`), by id. */
  readonly users: Map<number, UserItem>;
}

/**
 * Everything the space user search decides on that its index entries do not carry, in one round of BatchGetItems
 * side by side: the space and the caller's membership (the permission), each user's membership of the space, and
 * the user items of `usersToRead` (users whose entries were written before entries carried the user: none once
 * `storage:upgrade` ran). 100 users' memberships and the two permission keys make 102 keys: two calls.
 */
export async function findSpaceAndCandidates(
  spaceId: number,
  callerId: number,
  userIds: readonly number[],
  usersToRead: readonly number[] = [],
): Promise<CandidateCheck> {
  const wanted = [
    ...[...new Set(userIds)].map((userId) => ({ userId, user: false })),
    ...[...new Set(usersToRead)].map((userId) => ({ userId, user: true })),
  ];
  // The first batch also holds the space and the caller's membership.
  const chunks = [wanted.slice(0, KEYS_PER_BATCH - 2)];
  for (let at = KEYS_PER_BATCH - 2; at < wanted.length; at += KEYS_PER_BATCH)
    chunks.push(wanted.slice(at, at + KEYS_PER_BATCH));
  const readOf = (chunk: readonly { userId: number; user: boolean }[]) => {
    const memberOf = chunk.filter((one) => !one.user).map((one) => one.userId);
    const usersOf = chunk.filter((one) => one.user).map((one) => one.userId);
    return pairRead(
      itemsRead(
        memberOf.map((userId) => membershipKey(spaceId, userId)),
        MembershipItemSchema,
      ),
      usersOf.length > 0 ? usersByIdsRead(usersOf) : noRead(new Map<number, UserItem>()),
    );
  };
  const [[space, membership, first], ...rest] = await Promise.all([
    readTogether([spaceRead(spaceId), membershipRead(spaceId, callerId), readOf(chunks[0] ?? [])]),
    ...chunks.slice(1).map((chunk) => readTogether([readOf(chunk)])),
  ]);
  const memberships = new Map<number, MembershipItem>();
  const users = new Map<number, UserItem>();
  for (const [foundMemberships, foundUsers] of [first, ...rest.map(([only]) => only)]) {
    for (const found of foundMemberships) memberships.set(found.user_id, found);
    for (const [userId, user] of foundUsers) users.set(userId, user);
  }
  return { space, membership, memberships, users };
}
