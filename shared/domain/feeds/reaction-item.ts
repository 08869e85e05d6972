import * as v from 'valibot';
import { commentReactionKey, postReactionKey, postReactionsByTime } from '../../db/keys/feeds.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { indexEntry } from '../../db/partition.ts';
import { REACTION_TYPES } from '../../vocabulary/feeds.ts';

export type { ReactionType } from '../../vocabulary/feeds.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * One user's reaction on a feed or a comment, stored in the object's partition under the user's id, so the key
 * itself is the one-reaction-per-user guard (`attribute_not_exists` on create).
 */
export const ReactionItemSchema = v.object({
  object_type: v.picklist(['post', 'comment']),
  object_id: integer,
  user_id: integer,
  type: v.picklist(REACTION_TYPES),
  created_at: v.string(),
});
export type ReactionItem = v.InferOutput<typeof ReactionItemSchema>;

export const reactionKeyOf = (reaction: Pick<ReactionItem, 'object_type' | 'object_id' | 'user_id'>) =>
  reaction.object_type === 'post'
    ? postReactionKey(reaction.object_id, reaction.user_id)
    : commentReactionKey(reaction.object_id, reaction.user_id);

/** A post's reaction also enters the post's newest-first list of reactions; a comment's is listed nowhere. */
export const storedReaction = (reaction: ReactionItem) => ({
  ...reactionKeyOf(reaction),
  ...(reaction.object_type === 'post'
    ? indexEntry(postReactionsByTime(reaction.object_id), timeSort(reaction.created_at, reaction.user_id))
    : {}),
  entity: 'reaction',
  ...reaction,
});
