import { logger } from '../../observability/logger.ts';
import { type Caller, canSeeFeed } from '../auth/index.ts';
import { emitNotification, emitNotifications, type NotificationEvent } from '../notifications/index.ts';
import type { UserItem } from '../users/index.ts';
import { feedAccess } from './feed-access.ts';
import { mentionRecipients } from './mention-recipients.ts';
import type { PostItem } from './post-item.ts';

/**
 * Notifications of feed activity (decisions.md "Notifications", emission), through the notifications domain:
 * `new_comment` to the feed author, `new_reply` to the parent comment's author, `new_reaction` to the liked
 * content's author, `mention` to mentioned users who can see the content; never to the actor, and one notification
 * per person per action (a feed author who is also the replied-to author gets `new_reply` only; someone already
 * notified of the comment is not notified of a mention in it).
 *
 * Emission runs after the write it reports; a failure is logged and never fails that write's request.
 */

const EXCERPT_LENGTH = 140;

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat;
};

const feedUrl = (post: Pick<PostItem, 'id'>) => `/feeds/${post.id}`;

/**
 * The name notifications give the actor: their display name, from their user item, which each use case reads with
 * its other reads (so notifying reads nothing more), else their username.
 */
export interface Actor {
  readonly caller: Caller;
  readonly user: UserItem | undefined;
}
const actorName = ({ caller, user }: Actor): string => user?.display_name || caller.username;

async function safely(what: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.error('could not emit notifications', { what, error });
  }
}

/** The mentioned users who may see the feed (members of its space when it is members-only; moderators). */
const feedMentionRecipients = (post: PostItem, usernames: readonly string[], excluded: ReadonlySet<number>) =>
  mentionRecipients(usernames, excluded, post.space_id, (mentioned, membership) =>
    canSeeFeed(mentioned, feedAccess(post), membership),
  );

/** A new published feed: `mention` to the mentioned users who can see it. */
export function notifyFeedMentions(actor: Actor, post: PostItem, mentions: readonly string[]): Promise<void> {
  if (post.status !== 'published' || mentions.length === 0) return Promise.resolve();
  return safely('feed mentions', async () => {
    const recipients = await feedMentionRecipients(post, mentions, new Set([actor.caller.id]));
    if (recipients.length === 0) return;
    const name = actorName(actor);
    await emitNotifications(recipients, {
      type: 'mention',
      actorId: actor.caller.id,
      title: `${name} mentioned you in a post`,
      message: excerpt(post.title || post.message),
      actionUrl: feedUrl(post),
      objectId: post.id,
      objectType: 'feed',
    });
  });
}

/** A new comment: `new_reply` to the parent's author, `new_comment` to the feed author, `mention` to the rest. */
export function notifyComment(
  actor: Actor,
  post: PostItem,
  comment: { id: number; message: string; parentAuthorId: number | null },
  mentions: readonly string[],
): Promise<void> {
  return safely('comment', async () => {
    const name = actorName(actor);
    const event = (type: NotificationEvent['type'], title: string): NotificationEvent => ({
      type,
      actorId: actor.caller.id,
      title,
      message: excerpt(comment.message),
      actionUrl: `${feedUrl(post)}?comment_id=${comment.id}`,
      objectId: comment.id,
      objectType: 'comment',
    });
    const notified = new Set([actor.caller.id]);
    if (comment.parentAuthorId !== null && !notified.has(comment.parentAuthorId)) {
      notified.add(comment.parentAuthorId);
      await emitNotification({
        ...event('new_reply', `${name} replied to your comment`),
        recipientId: comment.parentAuthorId,
      });
    }
    if (!notified.has(post.user_id)) {
      notified.add(post.user_id);
      await emitNotification({
        ...event('new_comment', `${name} commented on your post`),
        recipientId: post.user_id,
      });
    }
    const mentioned = await feedMentionRecipients(post, mentions, notified);
    if (mentioned.length > 0) {
      await emitNotifications(mentioned, event('mention', `${name} mentioned you in a comment`));
    }
  });
}

/** A new like: `new_reaction` to the author of the liked feed or comment. */
export function notifyReaction(
  actor: Actor,
  post: PostItem,
  target: { objectType: 'feed' | 'comment'; objectId: number; authorId: number; text: string },
): Promise<void> {
  if (target.authorId === actor.caller.id) return Promise.resolve();
  return safely('reaction', async () => {
    const name = actorName(actor);
    await emitNotification({
      type: 'new_reaction',
      actorId: actor.caller.id,
      recipientId: target.authorId,
      title: `${name} liked your ${target.objectType === 'feed' ? 'post' : 'comment'}`,
      message: excerpt(target.text),
      actionUrl:
        target.objectType === 'feed' ? feedUrl(post) : `${feedUrl(post)}?comment_id=${target.objectId}`,
      objectId: target.objectId,
      objectType: target.objectType,
    });
  });
}
