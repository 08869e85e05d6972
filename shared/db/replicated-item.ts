import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { type ItemKey, itemKeyId } from './partition.ts';
import type { KeyedRead } from './read-together.ts';
import { batchGetRawItems } from './reads.ts';
import { putAction, type TransactAction, transactWriteIfConditionsHold, updateAction } from './transact.ts';

/**
 * An item that most requests read and few write (the site settings), kept as `replicas` identical copies in
 * partitions of their own, so that the reads of every request spread over `replicas` partitions instead of one.
 * Copy `n` of the item whose logical key is `{pk, sk}` lives at `{pk: pk + '#R' + n, sk}`; key modules name the
 * logical key, this module alone derives the copies' keys.
 *
 * Invariants:
 * - every change updates every copy in one TransactWriteItems (all or none), each update conditioned on its copy
 *   existing, so the copies never differ once a change has completed;
 * - a read takes one copy at random, strongly consistent, so it reflects every change that completed before it;
 * - copies are created once, all together (Put `attribute_not_exists` on each, one transaction), from the item at
 *   the logical key (where the item lived before it had copies; absent on a new table), by the first change, or
 *   beforehand by `createReplicas` (the local stack's provisioning); they are never deleted. A read that finds its
 *   copy absent therefore knows no change has been made through copies yet, so the logical key still holds the
 *   current state: it reads that instead. Reads never write (read-only functions read settings too).
 *
 * An item whose own writer keeps its copies (a topic: `replicaPutActions`, `replicaAbsentActions`) puts every copy
 * whole in each transaction that writes the item, and its delete leaves every copy holding only the marker, which
 * reads as absent with no read of the logical key (lists may name a deleted item's id long after).
 */
export interface ReplicatedItem {
  readonly key: ItemKey;
  readonly replicas: number;
}

export const replicatedItem = (key: ItemKey, replicas: number): ReplicatedItem => {
  // A change is one transaction of `replicas` updates (DynamoDB allows 100 actions).
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 100)
    throw new Error(`A replicated item takes 1 to 100 replicas, not ${replicas}`);
  return { key, replicas };
};

export const replicaKey = (item: ReplicatedItem, replica: number): ItemKey => ({
  pk: `${item.key.pk}#R${replica}`,
  sk: item.key.sk,
});

export const replicaKeys = (item: ReplicatedItem): ItemKey[] =>
  Array.from({ length: item.replicas }, (_, replica) => replicaKey(item, replica));

/** The stored attributes without the key. */
type Attributes = Record<string, unknown>;

/** Marks a copy (so that a copy of an absent item still exists); never part of what a read answers. */
const REPLICATED = 'replicated';

const withoutKey = ({ pk: _pk, sk: _sk, ...rest }: Record<string, unknown>): Attributes => rest;

async function getRaw(key: ItemKey): Promise<Record<string, unknown> | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item;
}

/**
 * The item's attributes (without its key) from one copy at random, strongly consistent; undefined when the item
 * has never been written. Without copies yet (no change since copies were introduced), from the logical key.
 */
export async function readReplicated(item: ReplicatedItem): Promise<Attributes | undefined> {
  const replica = Math.floor(Math.random() * item.replicas);
  const found = (await getRaw(replicaKey(item, replica))) ?? (await getRaw(item.key));
  return found && presentOrUndefined(withoutKey(found));
}

/** `readReplicated` as a read to send with others in one BatchGetItem (read-together.ts): consistent. */
export function replicatedRead(item: ReplicatedItem): KeyedRead<Attributes | undefined> {
  const key = replicaKey(item, Math.floor(Math.random() * item.replicas));
  return {
    keys: [key],
    consistent: true,
    settle: async (found) => {
      const raw = found.get(key) ?? (await getRaw(item.key));
      return raw && presentOrUndefined(withoutKey(raw));
    },
  };
}

/**
 * Many items' `replicatedRead`s as one read: one copy at random each, with the consistency of the BatchGetItem it
 * is sent in (a copy is written in the item's own transaction, so it is as fresh as the item would be); the items
 * whose copy is absent (none yet) are read at their logical key in one more BatchGetItem, strongly consistent.
 */
export function replicatedItemsRead(items: readonly ReplicatedItem[]): KeyedRead<(Attributes | undefined)[]> {
  const keys = items.map((item) => replicaKey(item, Math.floor(Math.random() * item.replicas)));
  return {
    keys,
    settle: async (found) => {
      const copies = keys.map((key) => found.get(key));
      const uncopied = items.filter((_, index) => !copies[index]).map((item) => item.key);
      const originals = uncopied.length === 0 ? [] : await batchGetRawItems(uncopied, true);
      const byKey = new Map(originals.map((raw) => [itemKeyId(raw), raw]));
      return items.map((item, index) => {
        const raw = copies[index] ?? byKey.get(itemKeyId(item.key));
        return raw && presentOrUndefined(withoutKey(raw));
      });
    },
  };
}

/** A copy made of an absent item holds only the marker: that reads as absent. */
function presentOrUndefined({ [REPLICATED]: _marker, ...attributes }: Attributes): Attributes | undefined {
  return Object.keys(attributes).length > 0 ? attributes : undefined;
}

/**
 * Creates every copy from the item at the logical key (a copy of an absent item holds only the marker), unless
 * copies exist already (then nothing is overwritten: a change may have been made through them).
 */
export async function createReplicas(item: ReplicatedItem): Promise<void> {
  const original = withoutKey((await getRaw(item.key)) ?? {});
  await transactWriteIfConditionsHold(
    replicaKeys(item).map((key) =>
      putAction({ ...original, [REPLICATED]: true, ...key }, { ifAbsent: true }),
    ),
  );
}

/**
 * Sets attributes on every copy in one transaction (other attributes, and concurrent changes of them, are kept).
 * Copies are created first when there are none yet.
 */
export async function setReplicated(
  item: ReplicatedItem,
  attributes: Readonly<Record<string, unknown>>,
): Promise<void> {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} = :a${index}`;
  });
  const update = {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await transactWriteIfConditionsHold(
      replicaKeys(item).map((key) => updateAction(key, update)),
    );
    if (outcome.written) return;
    // No copies yet (a table the change reaches first): create them from the logical key, then set again.
    await createReplicas(item);
  }
  throw new Error(`The copies of ${item.key.pk} ${item.key.sk} could not be changed`);
}

/** The copies of an item holding `attributes` (for writers that plan their puts themselves: the import). */
export const replicaItems = (
  item: ReplicatedItem,
  attributes: Readonly<Attributes>,
): (Attributes & ItemKey)[] =>
  replicaKeys(item).map((key) => ({ ...attributes, [REPLICATED]: true, ...key }));

/** Puts every copy whole, in the transaction that writes the item itself as `attributes`. */
export const replicaPutActions = (item: ReplicatedItem, attributes: Readonly<Attributes>): TransactAction[] =>
  replicaItems(item, attributes).map((copy) => putAction(copy));

/** Leaves every copy holding only the marker, in the transaction that deletes the item: copies read as absent. */
export const replicaAbsentActions = (item: ReplicatedItem): TransactAction[] =>
  replicaItems(item, {}).map((copy) => putAction(copy));
