import { newId } from '../../db/ids.ts';
import { noRead, readTogether } from '../../db/read-together.ts';
import { invalidParams } from '../../errors/app-error.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { renderMessage } from '../text/index.ts';
import { userRead } from '../users/index.ts';
import type { CommentItem } from './comment-item.ts';
import { type CommentResponse, toCommentResponse } from './comment-mapper.ts';
import { commentRead } from './comment-lookups.ts';
import { writeCommentActions } from './comment-repository.ts';
import { commentCreationActions } from './comment-write-actions.ts';
import { existingFeed, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { notifyComment } from './feed-notifications.ts';

/** The body of `POST /feeds/{id}/comments`. */
export interface CreateCommentInput {
  readonly message: string;
  readonly parent_id?: number | null | undefined;
}

const notAReplyHere = () => invalidParams({ parent_id: 'is not a comment of this feed' });

/**
 * `POST /feeds/{id}/comments`: a comment on a feed the caller may see (404 `not_found` otherwise), or a reply to
 * one of its comments (`parent_id`; a comment of another feed or no comment at all: 400 `rest_invalid_param`).
 * One transaction writes the comment, the feed's `comments_count` and the author's counters, on the condition
 * that the feed (and the parent) still exist, so the count is exact under any number of concurrent comments.
 * Then `new_reply`, `new_comment` and `mention` notifications, never to the commenter. Three rounds: the feed,
 * the parent and the commenter's user item (one BatchGetItem); the membership deciding visibility; the write.
 */
export async function createComment(
  caller: Caller,
  feedId: number,
  input: CreateCommentInput,
): Promise<{ message: string; comment: CommentResponse }> {
  const parentId = input.parent_id ?? null;
  const [found, parent, author] = await readTogether([
    feedRead(feedId),
    parentId === null ? noRead(undefined) : commentRead(parentId),
    userRead(caller.id),
  ]);
  const feed = existingFeed(found);
  const [membership] = await readTogether([feedMembershipRead(caller, feed)]);
  const { post } = visibleFeed(caller, feed, membership);
  if (parentId !== null && (!parent || parent.post_id !== post.id)) throw notAReplyHere();

  const id = newId();
  const now = nowIso();
  const { html, mentions } = renderMessage(input.message);
  const comment: CommentItem = {
    id,
    post_id: post.id,
    parent_id: parentId,
    user_id: caller.id,
    space_id: post.space_id,
    space_visibility: post.space_visibility,
    course_id: null,
    message: input.message,
    message_rendered: html,
    status: 'published',
    reactions_count: 0,
    created_at: now,
    updated_at: now,
  };
  const outcome = await writeCommentActions(commentCreationActions(comment));
  if (!outcome.written) {
    if (outcome.failed.includes(1)) throw feedNotFound();
    if (outcome.failed.includes(3)) throw notAReplyHere();
    throw new Error(`Comment ${id} could not be written`);
  }
  await notifyComment(
    { caller, user: author },
    post,
    { id, message: input.message, parentAuthorId: parent?.user_id ?? null },
    mentions,
  );
  return { message: 'Comment has been added.', comment: toCommentResponse(comment, author, false) };
}
