import * as v from 'valibot';
import { followingKey, followKey } from '../../db/keys/users.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * A follow, stored twice in one transaction: in the followed user's partition (`FOLLOWER#<follower>`, their
 * followers) and in the follower's (`FOLLOWING#<followed>`, their followings). Both copies carry both ids.
 */
export const FollowItemSchema = v.object({
  follower_id: integer,
  followed_id: integer,
  created_at: v.string(),
});
export type FollowItem = v.InferOutput<typeof FollowItemSchema>;

export const storedFollower = (follow: FollowItem) => ({
  ...followKey(follow.followed_id, follow.follower_id),
  entity: 'follower',
  ...follow,
});

export const storedFollowing = (follow: FollowItem) => ({
  ...followingKey(follow.follower_id, follow.followed_id),
  entity: 'following',
  ...follow,
});
