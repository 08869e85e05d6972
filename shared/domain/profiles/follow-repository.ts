import { counterUpdate } from '../../db/counters.ts';
import { followingKey, followKey, userFollowers, userFollowings, userKey } from '../../db/keys/users.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { deleteAction, putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import { type FollowItem, FollowItemSchema, storedFollower, storedFollowing } from './follow-item.ts';

/**
 * Follows, one function per access pattern (ACCESS_PATTERNS.md, "Profiles and follows"). The counters
 * `followers_count` and `followings_count` live on the two user items and move in the same transaction as the
 * follow's two copies, whose puts are conditioned on absence and deletes on presence: whatever the concurrency,
 * each counter equals the number of its copies (a second follow or unfollow cancels and moves nothing).
 */

const USER_EXISTS = { expression: 'attribute_exists(pk)' };

/** 'followed', or 'already' when the follow existed (nothing written). Throws when a user is gone. */
export async function insertFollow(follow: FollowItem): Promise<'followed' | 'already'> {
  const outcome = await transactWriteIfConditionsHold([
    putAction(storedFollower(follow), { ifAbsent: true }),
    putAction(storedFollowing(follow), { ifAbsent: true }),
    counterUpdate(userKey(follow.followed_id), { followers_count: 1 }, { condition: USER_EXISTS }),
    counterUpdate(userKey(follow.follower_id), { followings_count: 1 }, { condition: USER_EXISTS }),
  ]);
  if (outcome.written) return 'followed';
  if (outcome.failed.includes(0) || outcome.failed.includes(1)) return 'already';
  throw new Error(`Follow ${follow.follower_id} → ${follow.followed_id}: a user is gone`);
}

/** 'unfollowed', or 'absent' when there was no follow (nothing written). */
export async function deleteFollow(followerId: number, followedId: number): Promise<'unfollowed' | 'absent'> {
  const present = { ConditionExpression: 'attribute_exists(pk)' };
  const outcome = await transactWriteIfConditionsHold([
    deleteAction(followKey(followedId, followerId), present),
    deleteAction(followingKey(followerId, followedId), present),
    counterUpdate(userKey(followedId), { followers_count: -1 }),
    counterUpdate(userKey(followerId), { followings_count: -1 }),
  ]);
  if (outcome.written) return 'unfollowed';
  if (outcome.failed.includes(0) || outcome.failed.includes(1)) return 'absent';
  throw new Error(`Unfollow ${followerId} → ${followedId}: a counter disagrees with the follows`);
}

export interface FollowPageQuery {
  readonly userId: number;
  readonly page: number;
  readonly perPage: number;
  readonly cursor?: string | undefined;
  /** Bounds a jump to a later page; page 1 needs none. */
  readonly total?: number | undefined;
}

/** One page of a user's followers, in follower-id order, with the cursor to the next page. */
export function queryFollowerPage(query: FollowPageQuery): Promise<PageResult<FollowItem>> {
  return queryPage({
    ...query,
    partition: userFollowers(query.userId),
    schema: FollowItemSchema,
    ascending: true,
  });
}

/** One page of the users a user follows, in followed-id order, with the cursor to the next page. */
export function queryFollowingPage(query: FollowPageQuery): Promise<PageResult<FollowItem>> {
  return queryPage({
    ...query,
    partition: userFollowings(query.userId),
    schema: FollowItemSchema,
    ascending: true,
  });
}
