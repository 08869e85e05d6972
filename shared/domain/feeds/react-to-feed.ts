import { noRead, readTogether } from '../../db/read-together.ts';
import { invalidParams } from '../../errors/app-error.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { userRead } from '../users/index.ts';
import { commentRead } from './comment-lookups.ts';
import { existingFeed, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { notifyReaction } from './feed-notifications.ts';
import { type ReactionItem, type ReactionType, reactionKeyOf } from './reaction-item.ts';
import {
  addReaction,
  findReactionsCount,
  type ReactionStep,
  reactionPresenceRead,
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
 * on one of its comments. Read together, consistently, in one BatchGetItem: the feed, the comment, the caller's
 * reaction on the object and the caller's user item (the name a `new_reaction` gives them); then the membership
 * that decides visibility. The reaction decides the one transaction: adding creates the reaction only if absent
 * and adds 1 to the object's `reactions_count`; removing deletes it only if present and subtracts 1 (issue 21 item
 * 20). Two users liking at once give 2; a second like by the same user removes the first: the stored count equals
 * the reactions under any concurrency. The answer's count is the count read plus this toggle, with no read after
 * the write (three rounds); it is the stored count unless another member's like of the same object landed
 * between the read and the write (then it leaves that like out, as a read made just before would; the next read
 * shows it). It is not made exact by conditioning the write on the count read: under a burst of likes of one
 * object that cancels and retries transactions (issue 20 item 5 allows at most 5 %). After a lost race with the
 * caller's own concurrent toggle, the count is read after the write. A like (not an unlike) notifies the
 * content's author.
 */
export async function reactToFeed(
  caller: Caller,
  feedId: number,
  input: ReactInput,
): Promise<{ message: string; data: { liked: boolean; reactions_count: number } }> {
  const reactionKey = reactionKeyOf({
    object_type: input.comment_id === undefined ? 'post' : 'comment',
    object_id: input.comment_id ?? feedId,
    user_id: caller.id,
  });
  const [found, comment, likedBefore, actorUser] = await readTogether([
    feedRead(feedId, { consistent: true }),
    input.comment_id === undefined ? noRead(undefined) : commentRead(input.comment_id),
    // The caller's reaction on the object asked for; an id that is not a comment of this feed is refused below.
    reactionPresenceRead(reactionKey),
    userRead(caller.id),
  ]);
  const feed = existingFeed(found);
  const [membership] = await readTogether([feedMembershipRead(caller, feed)]);
  const { post } = visibleFeed(caller, feed, membership);
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
  const seen = comment ? comment.reactions_count : post.reactions_count;
  const { liked, count } = await toggle(reaction, post.id, likedBefore, seen);
  if (liked) {
    await notifyReaction({ caller, user: actorUser }, post, {
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

/**
 * One transaction per round, chosen by the state read; a lost race means the state flipped: try the other. The
 * count after the write is the count read ± 1 when the first round wrote (the state read held); after a lost race
 * it is read again.
 */
async function toggle(
  reaction: ReactionItem,
  feedId: number,
  likedBefore: boolean,
  seen: number,
): Promise<{ liked: boolean; count: number }> {
  let liked = likedBefore;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const step: ReactionStep = liked ? await removeReaction(reaction) : await addReaction(reaction, feedId);
    if (step === 'object_gone') throw feedNotFound();
    if (step === 'written') {
      if (round === 0) return { liked: !liked, count: Math.max(0, seen + (liked ? -1 : 1)) };
      const count = await findReactionsCount(reaction);
      if (count === undefined) throw feedNotFound();
      return { liked: !liked, count };
    }
    liked = !liked;
  }
  throw new Error('A reaction kept changing while it was toggled');
}
