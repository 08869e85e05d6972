import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { IdTaken } from '../../db/ids.ts';
import {
  topicDetachKey,
  topicKey,
  topicReadCopies,
  topicSlugGuardKey,
  topicStatsKey,
  topicsUnderParent,
} from '../../db/keys/topics.ts';
import { orderSort } from '../../db/keys/sort.ts';
import { replicaAbsentActions, replicaPutActions } from '../../db/replicated-item.ts';
import { indexEntry } from '../../db/partition.ts';
import {
  deleteAction,
  existsCheck,
  putAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import type { TransactAction } from '../../db/transact.ts';
import {
  HIERARCHY_VERSION,
  storedTopic,
  storedTopicSlugGuard,
  type TopicItem,
  topicCopyAttributes,
  topicCountName,
  topicStatsDeltas,
} from './topic-item.ts';
import { searchEntryActions } from './topic-search-entries.ts';

/**
 * Topic writes (ACCESS_PATTERNS.md, "Topics"). Each is one TransactWriteItems holding the topic, its slug guard,
 * the stats counters it moves, its title search entries and its read copies (`topicReadCopies`; both appended last
 * so the outcome indexes below stay put), so neither `pagination.total`, a search nor a read by id can disagree
 * with the topics.
 * Every change of an existing topic is conditioned on the `updated_at` it read (optimistic concurrency): a
 * write based on a stale read is refused and the use case re-reads. Outcomes name what refused the write.
 */

/** The counters one topic state contributes, as deltas from `before` to `after` (either may be absent). */
function statsDeltas(
  before: Pick<TopicItem, 'status' | 'parent_id'> | undefined,
  after: Pick<TopicItem, 'status' | 'parent_id'> | undefined,
): CounterDeltas {
  const deltas = new CounterDeltas();
  if (after) deltas.addAll(topicStatsDeltas(after));
  if (before)
    for (const [name, amount] of Object.entries(topicStatsDeltas(before))) deltas.add(name, -amount);
  return deltas;
}

/** The stats update with an extra condition AND-ed to the counters' floors. */
function statsUpdate(
  deltas: CounterDeltas,
  extra?: { condition: string; names: Record<string, string>; values: Record<string, unknown> },
): TransactAction {
  const action = counterUpdate(topicStatsKey(), deltas);
  const update = action.Update;
  if (!extra || !update) return action;
  return updateAction(topicStatsKey(), {
    UpdateExpression: update.UpdateExpression,
    ConditionExpression: update.ConditionExpression
      ? `(${update.ConditionExpression}) AND (${extra.condition})`
      : extra.condition,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...extra.names },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...extra.values },
  });
}

/** Every read copy put whole as the new state, unconditioned: the condition on the topic item decides. */
const copyPuts = (topic: TopicItem): TransactAction[] =>
  replicaPutActions(topicReadCopies(topic.id), topicCopyAttributes(topic));

/** `SET` of every mutable field and index entry of the new state, conditioned on the state read. */
function topicUpdate(before: TopicItem, after: TopicItem): TransactAction {
  const { pk: _pk, sk: _sk, id: _id, created_at: _created, ...fields } = storedTopic(after);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': before.updated_at };
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  names['#updatedAt'] = 'updated_at';
  return updateAction(topicKey(before.id), {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk) AND #updatedAt = :seen',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

export type InsertTopicOutcome = 'written' | 'slug_taken' | 'parent_missing';

/**
 * Creates a topic: the topic, its slug guard (`attribute_not_exists`: the slug's uniqueness, also under
 * concurrent creates), the stats counters, and a check that the parent still exists. A taken id (the topic
 * item's own guard, and no other condition) throws `IdTaken`.
 */
export async function insertTopic(topic: TopicItem): Promise<InsertTopicOutcome> {
  const actions = [
    putAction(storedTopic(topic), { ifAbsent: true }),
    putAction(storedTopicSlugGuard(topic.slug, topic.id), { ifAbsent: true }),
    statsUpdate(statsDeltas(undefined, topic)),
    ...(topic.parent_id === null ? [] : [existsCheck(topicKey(topic.parent_id))]),
  ];
  actions.push(...searchEntryActions(undefined, topic), ...copyPuts(topic));
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (topic.parent_id !== null && outcome.failed.includes(3)) return 'parent_missing';
  if (outcome.failed.includes(1)) return 'slug_taken';
  if (outcome.failed.includes(0)) throw new IdTaken(topic.id);
  throw new Error(`Topic ${topic.id} could not be created (conditions ${outcome.failed.join(', ')} failed)`);
}

export type SaveTopicOutcome = 'written' | 'changed' | 'slug_taken' | 'parent_missing';

/**
 * Replaces a topic's state `before` (as read) with `after`: the topic itself; a changed slug moves its guard
 * (the new one `attribute_not_exists`); a changed status or parent re-keys the list entries (done by the SET of
 * every index entry) and moves the stats counters. `hierarchyVersion` (the version read before the ancestor walk)
 * is given when the new parent could close a cycle: the write then also requires that no other re-parenting
 * happened since. `changed`: the topic or the hierarchy changed since they were read (re-read and retry).
 */
export async function saveTopic(
  before: TopicItem,
  after: TopicItem,
  hierarchyVersion?: number,
): Promise<SaveTopicOutcome> {
  const actions: TransactAction[] = [topicUpdate(before, after)];
  let guardIndex = -1;
  if (after.slug !== before.slug) {
    actions.push(deleteAction(topicSlugGuardKey(before.slug), ownGuard(before.id)));
    guardIndex = actions.push(putAction(storedTopicSlugGuard(after.slug, after.id), { ifAbsent: true })) - 1;
  }
  let parentIndex = -1;
  if (after.parent_id !== null && after.parent_id !== before.parent_id) {
    parentIndex = actions.push(existsCheck(topicKey(after.parent_id))) - 1;
  }
  const deltas = statsDeltas(before, after);
  if (hierarchyVersion !== undefined) deltas.add(HIERARCHY_VERSION, 1);
  let statsIndex = -1;
  if (!deltas.isEmpty) {
    statsIndex =
      actions.push(
        statsUpdate(
          deltas,
          hierarchyVersion === undefined ? undefined : hierarchyCondition(hierarchyVersion),
        ),
      ) - 1;
  }
  actions.push(...searchEntryActions(before, after), ...copyPuts(after));
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(0) || outcome.failed.includes(statsIndex)) return 'changed';
  if (outcome.failed.includes(guardIndex)) return 'slug_taken';
  if (outcome.failed.includes(parentIndex)) return 'parent_missing';
  // The old guard was not this topic's: the stored state is inconsistent, never something to retry.
  throw new Error(`Topic ${before.id} could not be saved (conditions ${outcome.failed.join(', ')} failed)`);
}

/** The hierarchy version still has the value read (absent reads as 0). */
function hierarchyCondition(seen: number) {
  return {
    condition: seen === 0 ? 'attribute_not_exists(#hv)' : '#hv = :hvSeen',
    names: { '#hv': HIERARCHY_VERSION },
    values: seen === 0 ? {} : { ':hvSeen': seen },
  };
}

/** A slug guard is deleted only by the topic that holds it (a missing guard is no obstacle). */
const ownGuard = (topicId: number) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR topic_id = :topicId',
  ExpressionAttributeValues: { ':topicId': topicId },
});

/**
 * Moves a child of a deleted topic under `newParentId` (null: top level), with its list entry and counters.
 * Conditioned on the child still being under `fromParentId` as read and on the new parent still existing.
 */
export async function moveChildTopic(
  child: TopicItem,
  newParentId: number | null,
  updatedAt: string,
): Promise<'written' | 'changed' | 'parent_missing'> {
  const under = indexEntry(topicsUnderParent(newParentId), orderSort(child.serial, child.id));
  const names: Record<string, string> = { '#updatedAt': 'updated_at' };
  const values: Record<string, unknown> = {
    ':parent': newParentId,
    ':updatedAt': updatedAt,
    ':seen': child.updated_at,
    ':from': child.parent_id,
  };
  const sets = Object.entries(under).map(([name, value], index) => {
    names[`#g${index}`] = name;
    values[`:g${index}`] = value;
    return `#g${index} = :g${index}`;
  });
  const actions = [
    updateAction(topicKey(child.id), {
      UpdateExpression: `SET parent_id = :parent, #updatedAt = :updatedAt, ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND #updatedAt = :seen AND parent_id = :from',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
    statsUpdate(statsDeltas(child, { ...child, parent_id: newParentId })),
    ...(newParentId === null ? [] : [existsCheck(topicKey(newParentId))]),
    ...searchEntryActions(child, { ...child, parent_id: newParentId }),
    ...copyPuts({ ...child, parent_id: newParentId, updated_at: updatedAt }),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (newParentId !== null && outcome.failed.includes(2)) return 'parent_missing';
  return 'changed';
}

/**
 * Deletes a topic as read: the topic (conditioned on its `updated_at`), its slug guard, its count on the topic
 * totals and its search entries, on the condition that it has no children left (its `parent:<id>` counter is 0),
 * so a child created concurrently is never orphaned; and puts its detach marker (`topicDetachKey`), which stays
 * until the `topics` worker has detached it from every feed. From then on a feed write that would link it is
 * cancelled (each checks its topics exist). Its feed totals item (`topicFeedStatsKey`, its `posts_count`) stays: a
 * later write of a feed counted under it moves it by the feed's stored topic set, and no list shows a deleted topic.
 * `has_children_or_changed`: adopt the children and re-read, then retry.
 */
export async function removeTopic(topic: TopicItem): Promise<'written' | 'has_children_or_changed'> {
  const children = topicCountName({ parentId: topic.id });
  const actions = [
    deleteAction(topicKey(topic.id), {
      ConditionExpression: 'attribute_exists(pk) AND updated_at = :seen',
      ExpressionAttributeValues: { ':seen': topic.updated_at },
    }),
    deleteAction(topicSlugGuardKey(topic.slug), ownGuard(topic.id)),
    statsUpdate(statsDeltas(topic, undefined), {
      condition: 'attribute_not_exists(#children) OR #children = :none',
      names: { '#children': children },
      values: { ':none': 0 },
    }),
    putAction({ ...topicDetachKey(topic.id), entity: 'topic_detach', topic_id: topic.id }),
    ...searchEntryActions(topic, undefined),
    // Its copies are left reading as absent (feed listings may name its id long after), never falling back.
    ...replicaAbsentActions(topicReadCopies(topic.id)),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(1)) {
    throw new Error(`The slug guard of topic ${topic.id} names another topic`);
  }
  return 'has_children_or_changed';
}
