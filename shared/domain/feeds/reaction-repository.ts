import * as v from 'valibot';
import { commentKey, postKey } from '../../db/keys/feeds.ts';
import type { ItemKey } from '../../db/partition.ts';
import { getItem } from '../../db/reads.ts';
import { type KeyedRead, itemRead, mapRead } from '../../db/read-together.ts';
import {
  deleteAction,
  existsCheck,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { type ReactionItem, reactionKeyOf, storedReaction } from './reaction-item.ts';

/**
 * Likes on feeds and comments (ACCESS_PATTERNS.md, "POST /feeds/{id}/react"). The reaction item's key is the
 * one-like-per-user guard and the object's `reactions_count` moves in the same transaction, so the count equals
 * the number of reaction items under any concurrency.
 */

const targetKey = (reaction: Pick<ReactionItem, 'object_type' | 'object_id'>): ItemKey =>
  reaction.object_type === 'post' ? postKey(reaction.object_id) : commentKey(reaction.object_id);

/** Why a toggle step did not write: the reaction was (or was not) there already, or its object is gone. */
export type ReactionStep = 'written' | 'reaction_state_changed' | 'object_gone';

/** Action 0 is always the reaction: its condition failing means another request toggled it first. */
async function step(actions: TransactAction[]): Promise<ReactionStep> {
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  return outcome.failed.includes(0) ? 'reaction_state_changed' : 'object_gone';
}

/**
 * Adds the like: the reaction (absent until now) and `ADD reactions_count 1` on its object, which must exist; a
 * like on a comment also checks that the comment's feed still exists (a deleted feed sweeps its comments).
 */
export function addReaction(reaction: ReactionItem, feedId: number): Promise<ReactionStep> {
  const actions: TransactAction[] = [
    putAction(storedReaction(reaction), { ifAbsent: true }),
    updateAction(targetKey(reaction), {
      UpdateExpression: 'ADD reactions_count :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  ];
  if (reaction.object_type === 'comment') {
    actions.push(existsCheck(postKey(feedId)));
  }
  return step(actions);
}

/** Removes the like: the reaction (present until now) and `ADD reactions_count -1`, never below zero. */
export function removeReaction(reaction: ReactionItem): Promise<ReactionStep> {
  return step([
    deleteAction(reactionKeyOf(reaction), { ConditionExpression: 'attribute_exists(pk)' }),
    updateAction(targetKey(reaction), {
      UpdateExpression: 'ADD reactions_count :minus',
      ConditionExpression: 'attribute_exists(pk) AND reactions_count >= :one',
      ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
    }),
  ]);
}

const PresenceSchema = v.object({ user_id: v.pipe(v.number(), v.integer()) });

/**
 * Whether the reaction exists now, as a read to send with others in one BatchGetItem (read-together.ts):
 * consistent, as the toggle decides its one transaction from it.
 */
export const reactionPresenceRead = (key: ItemKey): KeyedRead<boolean> =>
  mapRead(itemRead(key, PresenceSchema, { consistent: true }), (found) => found !== undefined);

const CountSchema = v.object({ reactions_count: v.pipe(v.number(), v.integer()) });

/** The object's `reactions_count` now (consistent read, after a toggle); undefined when the object is gone. */
export async function findReactionsCount(
  reaction: Pick<ReactionItem, 'object_type' | 'object_id'>,
): Promise<number | undefined> {
  return (await getItem(targetKey(reaction), CountSchema, { consistent: true }))?.reactions_count;
}
