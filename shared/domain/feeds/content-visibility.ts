import { type Caller, canSeeFeed } from '../auth/index.ts';
import { findMemberships } from '../spaces/index.ts';
import { findCommentsByIds } from './comment-lookups.ts';
import { feedAccess } from './feed-access.ts';
import { findPostsByIds } from './post-lookups.ts';

/**
 * Which of these feeds and comments the caller may see (other domains decide with it what hangs off them, e.g. the
 * media attached to them): a feed as `GET /feeds/{id}` decides; a comment when it is published and the caller may
 * see its feed's space. Unknown ids are not visible. One BatchGetItem of the items, one of the caller's
 * memberships of their spaces.
 */
export async function findVisibleContent(
  caller: Caller,
  ids: { feedIds: readonly number[]; commentIds: readonly number[] },
): Promise<{ feeds: Set<number>; comments: Set<number> }> {
  const [posts, comments] = await Promise.all([
    findPostsByIds(ids.feedIds),
    findCommentsByIds(ids.commentIds),
  ]);
  const spaceIds = [...posts.values(), ...comments.values()].flatMap((item) =>
    item.space_id === null ? [] : [item.space_id],
  );
  const memberships = await findMemberships(spaceIds, caller.id);
  const membershipOf = (spaceId: number | null) => (spaceId === null ? undefined : memberships.get(spaceId));
  const feeds = new Set(
    [...posts.values()]
      .filter(
        (post) => post.type === 'text' && canSeeFeed(caller, feedAccess(post), membershipOf(post.space_id)),
      )
      .map((post) => post.id),
  );
  const visibleComments = new Set(
    [...comments.values()]
      .filter(
        (comment) =>
          comment.status === 'published' &&
          canSeeFeed(
            caller,
            { authorId: comment.user_id, published: true, visibility: comment.space_visibility },
            membershipOf(comment.space_id),
          ),
      )
      .map((comment) => comment.id),
  );
  return { feeds, comments: visibleComments };
}
