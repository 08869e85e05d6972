import * as v from 'valibot';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import {
  type MigrationLedgerKind,
  migrationRunKey,
  migrationRunTallies,
  migrationTallyKey,
  migrationTallyPartKey,
} from '../../db/keys/migrations.ts';
import type { ItemKey } from '../../db/partition.ts';
import { queryAll } from '../../db/reads.ts';
import {
  MAX_TRANSACTION_ACTIONS,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { chunksDoneName, type RunItem } from './run-item.ts';

/**
 * Aggregates a run moves (authors' stats and points, spaces' member and post counts, the timeline totals), summed
 * over the whole run and moved once per counter item at its end, instead of once per chunk: an author with content
 * in every chunk is one update, not one per chunk. Each counted chunk stores its sums, cut into shards by counter
 * item, in the transaction that counts it (so only counted chunks contribute, each once); the run's last step
 * applies each shard (`applyTallyShard`).
 */
export const TALLY_SHARDS = 16;

const CounterSchema = v.object({
  pk: v.string(),
  sk: v.string(),
  deltas: v.record(v.string(), v.number()),
  identity: v.optional(v.record(v.string(), v.unknown())),
});
const TallyItemSchema = v.object({ counters: v.array(CounterSchema) });

/** FNV-1a of the partition key: a counter item always lands in the same shard. */
export function tallyShardOf(key: ItemKey): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.pk.length; i++) hash = Math.imul(hash ^ key.pk.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % TALLY_SHARDS;
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/** Counter moves summed per item; `identity` is what a first increment writes on an item it creates. */
export class Tally {
  readonly #entries = new Map<
    string,
    { key: ItemKey; deltas: CounterDeltas; identity?: Readonly<Record<string, unknown>> }
  >();

  add(key: ItemKey, deltas: Readonly<Record<string, number>>, identity?: Readonly<Record<string, unknown>>) {
    const id = idOf(key);
    const entry = this.#entries.get(id) ?? {
      key: { pk: key.pk, sk: key.sk },
      deltas: new CounterDeltas(),
      ...(identity && Object.keys(identity).length > 0 ? { identity } : {}),
    };
    entry.deltas.addAll(deltas);
    this.#entries.set(id, entry);
  }

  /** Non-empty entries in key order (the order every delivery cuts the same parts from). */
  entries() {
    return [...this.#entries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry)
      .filter((entry) => !entry.deltas.isEmpty);
  }

  /** The chunk's stored shards: one item per shard holding any counter. */
  shardItems(runId: string, kind: MigrationLedgerKind, chunkNo: number) {
    const shards = new Map<number, v.InferOutput<typeof CounterSchema>[]>();
    for (const entry of this.entries()) {
      const shard = tallyShardOf(entry.key);
      const counters = shards.get(shard) ?? [];
      counters.push({
        pk: entry.key.pk,
        sk: entry.key.sk,
        deltas: Object.fromEntries(entry.deltas.entries()),
        ...(entry.identity ? { identity: { ...entry.identity } } : {}),
      });
      shards.set(shard, counters);
    }
    return [...shards].map(([shard, counters]) => ({
      ...migrationTallyKey(runId, shard, kind, chunkNo),
      entity: 'migration_tally',
      run_id: runId,
      counters,
    }));
  }
}

/** Room for counter updates beside a part's marker, and in the last part, the run's update too. */
const PART_SIZE = MAX_TRANSACTION_ACTIONS - 2;

/**
 * Sums one shard over every counted chunk of the run and moves each counter item once, in parts of 98 updates,
 * each part in one transaction with its marker (`attribute_not_exists`); the last part also adds 1 to the run's
 * `chunks_done_tally`. The sums are fixed once the last chunk is counted and sorted by key, so a redelivery cuts the same
 * parts and each moves once. Answers whether this call counted the shard done.
 */
export async function applyTallyShard(run: RunItem, shard: number): Promise<boolean> {
  const tally = new Tally();
  for await (const items of queryAll(migrationRunTallies(run.run_id, shard), TallyItemSchema, {
    consistent: true,
  }))
    for (const item of items)
      for (const counter of item.counters)
        tally.add({ pk: counter.pk, sk: counter.sk }, counter.deltas, counter.identity);
  const entries = tally.entries();
  const parts = Math.max(1, Math.ceil(entries.length / PART_SIZE));
  let counted = false;
  for (let part = 0; part < parts; part++) {
    const actions: TransactAction[] = [
      putAction(
        {
          ...migrationTallyPartKey(run.run_id, shard, part),
          entity: 'migration_tally_part',
          run_id: run.run_id,
        },
        { ifAbsent: true },
      ),
      ...entries
        .slice(part * PART_SIZE, (part + 1) * PART_SIZE)
        .map((entry) =>
          counterUpdate(entry.key, entry.deltas, entry.identity ? { setOnCreate: entry.identity } : {}),
        ),
    ];
    const last = part === parts - 1;
    if (last)
      actions.push(
        updateAction(migrationRunKey(run.source), {
          UpdateExpression: 'ADD #done :one',
          ConditionExpression: 'run_id = :run',
          ExpressionAttributeNames: { '#done': chunksDoneName('tally') },
          ExpressionAttributeValues: { ':one': 1, ':run': run.run_id },
        }),
      );
    const outcome = await transactWriteIfConditionsHold(actions);
    if (outcome.written) counted ||= last;
    // The marker exists: another delivery moved this part already.
    else if (!outcome.failed.includes(0) || outcome.failed.length > 1)
      throw new Error(`tally shard ${shard} part ${part}: unexpected condition failure`);
  }
  return counted;
}
