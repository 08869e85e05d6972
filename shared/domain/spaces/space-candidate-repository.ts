import { membershipKey } from '../../db/keys/spaces.ts';
import { userKey } from '../../db/keys/users.ts';
import { getItems } from '../../db/reads.ts';
import { type UserItem, UserItemSchema } from '../users/index.ts';
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
      const found = await getItems<unknown[]>(
        chunk.flatMap((userId) => [
          { key: membershipKey(spaceId, userId), schema: MembershipItemSchema },
          { key: userKey(userId), schema: UserItemSchema },
        ]) as never,
      );
      chunk.forEach((userId, index) => {
        const membership = found[index * 2] as MembershipItem | undefined;
        const user = found[index * 2 + 1] as UserItem | undefined;
        if (membership) memberships.set(userId, membership);
        if (user) users.set(userId, user);
      });
    }),
  );
  return { memberships, users };
}
