import { logger } from '../../observability/logger.ts';
import { type Caller, isEnrolled } from '../auth/index.ts';
import { emitNotification, emitNotifications } from '../notifications/index.ts';
import { mentionRecipients } from '../feeds/index.ts';

/**
 * Notifications of a published lesson comment (decisions.md "Notifications", emission): `new_reply` to the parent
 * comment's author and `mention` to mentioned users who can see the lesson (its students and admins), never to the
 * commenter and once per person. Lessons have no author to tell of `new_comment` (their "author" is the course).
 * Runs after the comment is stored; a failure is logged and never fails the request.
 */
const EXCERPT_LENGTH = 140;

export async function notifyLessonComment(
  actor: Caller,
  comment: {
    readonly id: number;
    readonly courseId: number;
    readonly lessonId: number;
    readonly message: string;
    readonly parentAuthorId: number | null;
  },
  mentions: readonly string[],
  /** The commenter's display name, as read for the request (no read here). */
  actorName: string | undefined,
): Promise<void> {
  try {
    const flat = comment.message.replace(/\s+/g, ' ').trim();
    const name = actorName || actor.username;
    const event = {
      actorId: actor.id,
      message: flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat,
      actionUrl: `/courses/${comment.courseId}/lessons/${comment.lessonId}?comment_id=${comment.id}`,
      objectId: comment.id,
      objectType: 'comment',
    };
    const notified = new Set([actor.id]);
    if (comment.parentAuthorId !== null && !notified.has(comment.parentAuthorId)) {
      notified.add(comment.parentAuthorId);
      await emitNotification({
        ...event,
        type: 'new_reply',
        title: `${name} replied to your comment`,
        recipientId: comment.parentAuthorId,
      });
    }
    const recipients = await courseMentionRecipients(comment.courseId, mentions, notified);
    if (recipients.length > 0) {
      await emitNotifications(recipients, {
        ...event,
        type: 'mention',
        title: `${name} mentioned you in a comment`,
      });
    }
  } catch (error) {
    logger.error('could not notify a lesson comment', { commentId: comment.id, error });
  }
}

/** Mentioned users who take part in the course (active members, or its admins), `excluded` left out. */
const courseMentionRecipients = (
  courseId: number,
  usernames: readonly string[],
  excluded: ReadonlySet<number>,
) =>
  mentionRecipients(
    usernames,
    excluded,
    courseId,
    (mentioned, membership) => mentioned.status === 'active' && isEnrolled(mentioned, membership),
  );
