import { type KeyedRead, noRead } from '../../db/read-together.ts';
import { type Caller, canSeeFeed, type FeedAccess, type FeedSpace } from '../auth/index.ts';
import { findMembership, type MembershipItem, membershipRead, type SpaceItem } from '../spaces/index.ts';
import type { UserItem } from '../users/index.ts';
import { feedNotFound } from './feed-errors.ts';
import { findPostById, postRead } from './post-lookups.ts';
import type { PostItem } from './post-item.ts';

/** The permission module's view of a feed. */
export const feedAccess = (post: PostItem): FeedAccess => ({
  authorId: post.user_id,
  published: post.status === 'published',
  visibility: post.space_visibility,
});

/** The permission module's view of a space. */
export const feedSpace = (space: SpaceItem): FeedSpace => ({
  restrictedPostOnly: space.settings.restricted_post_only === 'yes',
});

/** A user as a caller, to decide what a notification recipient may see. */
export const callerOf = (user: UserItem): Caller => ({
  id: user.id,
  username: user.username,
  hostRole: user.host_role,
  communityRoles: user.community_roles,
  status: user.status,
});

export interface VisibleFeed {
  readonly post: PostItem;
  /** The caller's membership of the feed's space (undefined for the global feed or a non-member). */
  readonly membership: MembershipItem | undefined;
}

/**
 * A feed's visibility is decided in two steps, so that a use case can read what else it needs beside each (one
 * BatchGetItem per step, read-together.ts): the post (`feedRead`, then `existingFeed`), then the caller's
 * membership of its space (`feedMembershipRead`, then `visibleFeed`).
 */
export const feedRead = (feedId: number, options: { consistent?: boolean } = {}) => postRead(feedId, options);

/** The post when it is a feed; 404 `not_found` when it does not exist or is not a feed (lessons are posts too). */
export function existingFeed(post: PostItem | undefined): PostItem {
  if (post?.type !== 'text') throw feedNotFound();
  return post;
}

/** The caller's membership of the feed's space (nothing to read for a global feed). */
export const feedMembershipRead = (caller: Caller, post: PostItem): KeyedRead<MembershipItem | undefined> =>
  post.space_id === null ? noRead(undefined) : membershipRead(post.space_id, caller.id);

/** 404 `not_found` when the feed is hidden from the caller (members-only space, or unpublished and not theirs). */
export function visibleFeed(
  caller: Caller,
  post: PostItem,
  membership: MembershipItem | undefined,
): VisibleFeed {
  if (!canSeeFeed(caller, feedAccess(post), membership)) throw feedNotFound();
  return { post, membership };
}

/**
 * A feed the caller may see, with the caller's membership of its space; 404 `not_found` when it does not exist, is
 * not a feed, or is hidden from the caller. `consistent` for reads a write decides on.
 */
export async function loadVisibleFeed(
  caller: Caller,
  feedId: number,
  options: { consistent?: boolean } = {},
): Promise<VisibleFeed> {
  const post = existingFeed(await findPostById(feedId, options));
  const membership = post.space_id === null ? undefined : await findMembership(post.space_id, caller.id);
  return visibleFeed(caller, post, membership);
}
