import { membershipKey } from '../../db/keys/spaces.ts';
import { itemsRead, noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { type UserItem, usersByIdsRead } from '../users/index.ts';
import { type MembershipItem, MembershipItemSchema, type SpaceItem } from './space-item.ts';
import { membershipRead, spaceRead } from './space-lookups.ts';

/** Users per BatchGetItem: each brings two keys (membership, user item), and a BatchGetItem takes 100. */
const USERS_PER_BATCH = 50;

export interface CandidateCheck {
  readonly space: SpaceItem | undefined;
  /** The caller's own membership of the space (the permission). */
  readonly membership: MembershipItem | undefined;
  /** The users' memberships of the space, by user id. */
  readonly memberships: Map<number, MembershipItem>;
  readonly users: Map<number, UserItem>;
}

/**
 * Everything the space user search decides on, in one round of BatchGetItems side by side: the space and the
 * caller's membership (the permission) with the first 49 users' membership and user items, then 50 users a batch
 * (members' user items are read for nothing, in exchange for a round). 49 users cost one call, 99 two, 100 three.
 */
export async function findSpaceAndCandidates(
  spaceId: number,
  callerId: number,
  userIds: readonly number[],
): Promise<CandidateCheck> {
  const ids = [...new Set(userIds)];
  const chunks: number[][] = [ids.slice(0, USERS_PER_BATCH - 1)];
  for (let at = USERS_PER_BATCH - 1; at < ids.length; at += USERS_PER_BATCH)
    chunks.push(ids.slice(at, at + USERS_PER_BATCH));
  const usersOf = (chunk: readonly number[]) =>
    pairRead(
      itemsRead(
        chunk.map((userId) => membershipKey(spaceId, userId)),
        MembershipItemSchema,
      ),
      chunk.length > 0 ? usersByIdsRead(chunk) : noRead(new Map<number, UserItem>()),
    );
  const [[space, membership, first], ...rest] = await Promise.all([
    readTogether([spaceRead(spaceId), membershipRead(spaceId, callerId), usersOf(chunks[0] ?? [])]),
    ...chunks.slice(1).map((chunk) => readTogether([usersOf(chunk)])),
  ]);
  const memberships = new Map<number, MembershipItem>();
  const users = new Map<number, UserItem>();
  for (const [foundMemberships, foundUsers] of [first, ...rest.map(([only]) => only)]) {
    for (const found of foundMemberships) memberships.set(found.user_id, found);
    for (const [userId, user] of foundUsers) users.set(userId, user);
  }
  return { space, membership, memberships, users };
}
