import { AppError, notFound, userNotFound } from '../../errors/app-error.ts';
import type { MediaObjectSource } from '../../vocabulary/media.ts';
import { type Caller, isOwnerOrModerator, isSpaceMember } from '../auth/index.ts';
import { findCommentsByIds, findPostsByIds, findVisibleContent } from '../feeds/index.ts';
import { findMemberships, findSpacesByIds, findSpaceWithMembership } from '../spaces/index.ts';
import { findUserById } from '../users/index.ts';
import type { MediaItem } from './media-item.ts';
import { contentScope, type MediaScope, PUBLIC_SCOPE, spaceScope, UPLOADER_SCOPE } from './media-scope.ts';

/**
 * What an upload may be attached to, and who may see attached media, through the read models of the domains that
 * own the objects (feeds, spaces, users): one rule for the upload, the single read and the member list.
 */

/**
 * The object named by `object_source`/`object_id`, refused as its own read would refuse it when it does not exist
 * or the caller may not see it (issue 21, item 5): 404 `not_found` for a feed, comment or space (decisions.md: the
 * code of unknown spaces, which feeds and comments follow; a hidden one answers the same), 404 `user_not_found`
 * for a profile. Answers the scope the item gets (media-scope.ts).
 */
export async function resolveAttachment(
  caller: Caller,
  source: MediaObjectSource | null,
  objectId: number | null,
): Promise<MediaScope> {
  if (source === null) return UPLOADER_SCOPE;
  if (objectId === null) {
    throw new AppError('rest_missing_callback_param', 400, 'Missing parameter(s): object_id', {
      params: ['object_id'],
    });
  }
  switch (source) {
    case 'profile': {
      const user = await findUserById(objectId);
      // A profile that is not active is readable by community moderators only (decisions.md).
      if (!user || (user.status !== 'active' && !isOwnerOrModerator(caller, user.id))) {
        throw userNotFound();
      }
      return PUBLIC_SCOPE;
    }
    case 'feed': {
      const [posts, visible] = await Promise.all([
        findPostsByIds([objectId]),
        findVisibleContent(caller, { feedIds: [objectId], commentIds: [] }),
      ]);
      const post = posts.get(objectId);
      if (!post || !visible.feeds.has(objectId)) throw notFound('not_found', 'Feed not found.');
      return contentScope(post);
    }
    case 'comment': {
      const [comments, visible] = await Promise.all([
        findCommentsByIds([objectId]),
        findVisibleContent(caller, { feedIds: [], commentIds: [objectId] }),
      ]);
      const comment = comments.get(objectId);
      if (!comment || !visible.comments.has(objectId)) throw notFound('not_found', 'Comment not found.');
      return contentScope(comment);
    }
    case 'space': {
      const { space, membership } = await findSpaceWithMembership(objectId, caller.id);
      if (!space || (space.privacy === 'secret' && !isSpaceMember(caller, membership))) {
        throw notFound('not_found', 'Space not found.');
      }
      return spaceScope(space);
    }
  }
}

/** The scopes of existing objects by source and id (the import attaches records to them); unknown ids are absent. */
export async function findObjectScopes(ids: {
  feed: readonly number[];
  comment: readonly number[];
  space: readonly number[];
}): Promise<{
  feed: Map<number, MediaScope>;
  comment: Map<number, MediaScope>;
  space: Map<number, MediaScope>;
}> {
  const [posts, comments, spaces] = await Promise.all([
    findPostsByIds(ids.feed),
    findCommentsByIds(ids.comment),
    findSpacesByIds(ids.space),
  ]);
  const scopes = <T>(items: Map<number, T>, scopeOf: (item: T) => MediaScope) =>
    new Map([...items].map(([id, item]) => [id, scopeOf(item)] as const));
  return {
    feed: scopes(posts, contentScope),
    comment: scopes(comments, contentScope),
    space: scopes(spaces, spaceScope),
  };
}

/**
 * The items the caller may see, in order: all of them for their uploader and community moderators; for anyone
 * else an item whose scope lets others see it and whose object the caller may see now (a feed as `GET /feeds/{id}`
 * decides, a published comment of a visible feed, a public space or one the caller is a member of, a profile).
 * Two BatchGetItems at most (the objects, the caller's memberships of their spaces), whatever the page.
 */
export async function filterVisibleMedia(caller: Caller, items: readonly MediaItem[]): Promise<MediaItem[]> {
  const judged = items.filter((item) => !isOwnerOrModerator(caller, item.user_id));
  if (judged.length === 0) return [...items];
  const idsOf = (source: string) =>
    judged.flatMap((item) =>
      item.object_source === source && item.object_id !== null && item.visibility !== 'uploader'
        ? [item.object_id]
        : [],
    );
  const spaceIds = idsOf('space');
  const [content, spaces, memberships] = await Promise.all([
    findVisibleContent(caller, { feedIds: idsOf('feed'), commentIds: idsOf('comment') }),
    findSpacesByIds(spaceIds),
    findMemberships(spaceIds, caller.id),
  ]);
  const spaceVisible = (spaceId: number) => {
    const space = spaces.get(spaceId);
    return (
      space !== undefined && (space.privacy === 'public' || isSpaceMember(caller, memberships.get(spaceId)))
    );
  };
  const visible = (item: MediaItem): boolean => {
    if (isOwnerOrModerator(caller, item.user_id)) return true;
    if (item.visibility === 'uploader' || item.object_id === null) return false;
    switch (item.object_source) {
      case 'profile':
        return true;
      case 'feed':
        return content.feeds.has(item.object_id);
      case 'comment':
        return content.comments.has(item.object_id);
      case 'space':
        return spaceVisible(item.object_id);
      default:
        return false;
    }
  };
  return items.filter(visible);
}
