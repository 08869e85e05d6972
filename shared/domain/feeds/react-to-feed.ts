import { invalidParams } from '../../errors/app-error.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { findCommentById } from './comment-repository.ts';
import { loadVisibleFeed } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { notifyReaction } from './feed-notifications.ts';
import { type ReactionItem, type ReactionType, reactionKeyOf } from './reaction-item.ts';
import {
  addReaction,
  findReactionsCount,
  hasReaction,
  type ReactionStep,
  removeReaction,
} from './reaction-repository.ts';

/** The body of `POST /feeds/{id}/react`: `like` toggles; `comment_id` likes one of the feed's comments instead. */
export interface ReactInput {
  readonly react_type: ReactionType;
  readonly comment_id?: number | undefined;
}

/**
 * Each round is one transaction that either writes or has lost a race to a concurrent toggle by the same user
 * (which flipped the state it decided from): a few rounds suffice.
 */
const MAX_ROUNDS = 10;

/**
 * `POST /feeds/{id}/react`: toggles the caller's like on a feed the caller may see (404 `not_found` otherwise) or
 * on one of its comments. Whether the caller's reaction exists is read (consistently) together with the feed, and
 * decides the one transaction: adding creates the reaction only if absent and adds 1 to the object's
 * `reactions_count`; removing deletes it only if present and subtracts 1 (issue 21 item 20: an unlike is one
 * transaction, not a failed add followed by the remove). Two users liking at once give 2; a second like by the same user removes the first. Answers the
 * new state and the count read after the write; a like (not an unlike) notifies the content's author.
 */
export async function reactToFeed(
  caller: Caller,
  feedId: number,
  input: ReactInput,
): Promise<{ message: string; data: { liked: boolean; reactions_count: number } }> {
  const [{ post }, comment, likedBefore] = await Promise.all([
    loadVisibleFeed(caller, feedId),
    input.comment_id === undefined ? undefined : findCommentById(input.comment_id),
    // The caller's reaction on the object asked for; an id that is not a comment of this feed is refused below.
    hasReaction(
      reactionKeyOf({
        object_type: input.comment_id === undefined ? 'post' : 'comment',
        object_id: input.comment_id ?? feedId,
        user_id: caller.id,
      }),
    ),
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
  const liked = await toggle(reaction, post.id, likedBefore);
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

/** One transaction per round, chosen by the state read; a lost race means the state flipped: try the other. */
async function toggle(reaction: ReactionItem, feedId: number, likedBefore: boolean): Promise<boolean> {
  let liked = likedBefore;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const step: ReactionStep = liked ? await removeReaction(reaction) : await addReaction(reaction, feedId);
    if (step === 'written') return !liked;
    if (step === 'object_gone') throw feedNotFound();
    liked = !liked;
  }
  throw new Error('A reaction kept changing while it was toggled');
}
