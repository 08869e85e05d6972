import { invalidParams } from '../../errors/app-error.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { findCommentById } from './comment-repository.ts';
import { loadVisibleFeed } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { notifyReaction } from './feed-notifications.ts';
import type { ReactionItem, ReactionType } from './reaction-item.ts';
import { addReaction, findReactionsCount, removeReaction } from './reaction-repository.ts';

/** The body of `POST /feeds/{id}/react`: `like` toggles; `comment_id` likes one of the feed's comments instead. */
export interface ReactInput {
  readonly react_type: ReactionType;
  readonly comment_id?: number | undefined;
}

/** Each round either writes or has lost a race to a concurrent toggle by the same user: a few rounds suffice. */
const MAX_ROUNDS = 10;

/**
 * `POST /feeds/{id}/react`: toggles the caller's like on a feed the caller may see (404 `not_found` otherwise) or
 * on one of its comments. Adding is a transaction that creates the reaction only if absent and adds 1 to the
 * object's `reactions_count`; when the reaction exists, removing is the transaction that deletes it only if present
 * and subtracts 1. Two users liking at once give 2; a second like by the same user removes the first. Answers the
 * new state and the count read after the write; a like (not an unlike) notifies the content's author.
 */
export async function reactToFeed(
  caller: Caller,
  feedId: number,
  input: ReactInput,
): Promise<{ message: string; data: { liked: boolean; reactions_count: number } }> {
  const [{ post }, comment] = await Promise.all([
    loadVisibleFeed(caller, feedId),
    input.comment_id === undefined ? undefined : findCommentById(input.comment_id),
  ]);
  if (input.comment_id !== undefined && (!comment || comment.post_id !== post.id)) {
    throw invalidParams({ comment_id: 'is not a comment of this feed' });
  }
  const reaction: ReactionItem = {
    object_type: comment ? 'comment' : 'post',
    object_id: comment ? comment.id : post.id,
    user_id: caller.id,
    type: input.react_type,
    created_at: nowIso(),
  };
  const liked = await toggle(reaction, post.id);
  const count = await findReactionsCount(reaction);
  if (count === undefined) throw feedNotFound();
  if (liked) {
    await notifyReaction(caller, post, {
      objectType: comment ? 'comment' : 'feed',
      objectId: reaction.object_id,
      authorId: comment ? comment.user_id : post.user_id,
      text: comment ? comment.message : post.title || post.message,
    });
  }
  return {
    message: liked ? 'Reaction has been added.' : 'Reaction has been removed.',
    data: { liked, reactions_count: count },
  };
}

async function toggle(reaction: ReactionItem, feedId: number): Promise<boolean> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const added = await addReaction(reaction, feedId);
    if (added === 'written') return true;
    if (added === 'object_gone') throw feedNotFound();
    const removed = await removeReaction(reaction);
    if (removed === 'written') return false;
    if (removed === 'object_gone') throw feedNotFound();
  }
  throw new Error('A reaction kept changing while it was toggled');
}
