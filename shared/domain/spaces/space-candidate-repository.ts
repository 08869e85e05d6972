import { membershipKey } from '../../db/keys/spaces.ts';
import { itemsRead, readTogether } from '../../db/read-together.ts';
import { type UserItem, usersByIdsRead } from '../users/index.ts';
import { type MembershipItem, MembershipItemSchema } from './space-item.ts';

/** Users per BatchGetItem: each brings two keys (membership, user item), and a BatchGetItem takes 100. */
const USERS_PER_BATCH = 50;

/**
 * Many users' memberships of one space and their user items, batched together (one BatchGetItem per 50 users, in
 * parallel): the space user search decides on both, so a members' user items are read for nothing in exchange for
 * one call fewer. Absent items are absent from the maps.
 */
export async function findMembershipsAndUsers(
  spaceId: number,
  userIds: readonly number[],
): Promise<{ memberships: Map<number, MembershipItem>; users: Map<number, UserItem> }> {
  const ids = [...new Set(userIds)];
  const memberships = new Map<number, MembershipItem>();
  const users = new Map<number, UserItem>();
  const chunks: number[][] = [];
  for (let at = 0; at < ids.length; at += USERS_PER_BATCH) chunks.push(ids.slice(at, at + USERS_PER_BATCH));
  await Promise.all(
    chunks.map(async (chunk) => {
      const [foundMemberships, foundUsers] = await readTogether([
        itemsRead(
          chunk.map((userId) => membershipKey(spaceId, userId)),
          MembershipItemSchema,
        ),
        usersByIdsRead(chunk),
      ]);
      for (const membership of foundMemberships) memberships.set(membership.user_id, membership);
      for (const [userId, user] of foundUsers) users.set(userId, user);
    }),
  );
  return { memberships, users };
}
