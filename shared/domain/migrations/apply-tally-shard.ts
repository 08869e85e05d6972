import { inLanes } from '../../db/batch-write.ts';
import { counterCreation, counterUpdate } from '../../db/counters.ts';
import {
  migrationRunKey,
  migrationRunTallies,
  migrationTallyPartKey,
  migrationTallyShardDoneKey,
} from '../../db/keys/migrations.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { presentKeys, queryAll } from '../../db/reads.ts';
import {
  MAX_TRANSACTION_ACTIONS,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { chunksDoneName, type RunItem } from './run-item.ts';
import { Tally, TallyItemSchema, unpackCounters } from './tally.ts';

/** Room for counter moves beside a part's marker. */
const PART_SIZE = MAX_TRANSACTION_ACTIONS - 1;
/** A part whose creations keep meeting items created meanwhile is moved by updates alone after this. */
const PART_ATTEMPTS = 3;
/**
 * Parts of one shard moved at once. Each part is two serial round trips (its read, its transaction), so a shard's
 * time is its rounds of parts: at the acceptance size (about 10 000 counter items over 16 shards, seven parts each)
 * eight at once move a shard in one round rather than two. At most 4 workers × 8 transactions in flight, on
 * distinct items (no part cancels another).
 */
const PARALLEL_PARTS = 8;

type Entry = ReturnType<Tally['entries']>[number];

/**
 * Sums one shard over every counted chunk of the run and moves each counter item once, in parts of 99, each part
 * in one transaction with its marker (`attribute_not_exists`), eight parts at once; once every part has moved, a
 * last small transaction creates the shard's done marker and adds 1 to the run's `chunks_done_tally`. The sums
 * are fixed once the last chunk is counted and sorted by key, so a redelivery cuts the same parts and each moves
 * once; a shard is counted done once, and only after all its counters moved.
 *
 * An aggregate item that does not exist yet (the stats of a user this run created) is created whole by a
 * conditional put rather than by an update of every counter: the same result for far less work in the store. One
 * created meanwhile fails its put's condition, which cancels the part; the part is then tried again with an update
 * for that item. Answers whether this call counted the shard done.
 */
export async function applyTallyShard(run: RunItem, shard: number): Promise<boolean> {
  const tally = new Tally();
  for await (const items of queryAll(migrationRunTallies(run.run_id, shard), TallyItemSchema, {
    consistent: true,
  }))
    for (const item of items)
      for (const [pk, sk, deltas, identity] of unpackCounters(item.counters))
        tally.add({ pk, sk }, deltas, identity);
  const entries = tally.entries();
  const parts = Array.from({ length: Math.ceil(entries.length / PART_SIZE) }, (_, part) => ({
    part,
    slice: entries.slice(part * PART_SIZE, (part + 1) * PART_SIZE),
  }));
  await inLanes(parts, PARALLEL_PARTS, ({ part, slice }) => movePart(run, shard, part, slice));
  const done = await transactWriteIfConditionsHold([
    marker(migrationTallyShardDoneKey(run.run_id, shard), run),
    shardDone(run),
  ]);
  return done.written;
}

const marker = (key: ItemKey, run: RunItem): TransactAction =>
  putAction({ ...key, entity: 'migration_tally_part', run_id: run.run_id }, { ifAbsent: true });

/**
 * Moves one part's counters in one transaction with its marker; a part whose marker exists was moved by another
 * delivery already.
 */
async function movePart(run: RunItem, shard: number, part: number, slice: readonly Entry[]): Promise<void> {
  const creatable = await absentItems(slice.filter((entry) => entry.identity));
  for (let attempt = 1; ; attempt++) {
    const moves = slice.map((entry) => moveOf(entry, creatable.has(itemKeyId(entry.key))));
    const outcome = await transactWriteIfConditionsHold([
      marker(migrationTallyPartKey(run.run_id, shard, part), run),
      ...moves,
    ]);
    if (outcome.written || outcome.failed.includes(0)) return;
    const created = outcome.failed.filter((index) => index >= 1 && index <= slice.length);
    if (created.length !== outcome.failed.length || attempt >= PART_ATTEMPTS)
      throw new Error(`tally shard ${shard} part ${part}: conditions failed (${outcome.failed.join(', ')})`);
    for (const [i, entry] of slice.entries())
      if (created.includes(i + 1)) creatable.delete(itemKeyId(entry.key));
  }
}

const moveOf = (entry: Entry, create: boolean): TransactAction =>
  create
    ? counterCreation(entry.key, entry.deltas, entry.identity)
    : counterUpdate(entry.key, entry.deltas, entry.identity ? { setOnCreate: entry.identity } : {});

const shardDone = (run: RunItem): TransactAction =>
  updateAction(migrationRunKey(run.source), {
    UpdateExpression: 'ADD #done :one',
    ConditionExpression: 'run_id = :run',
    ExpressionAttributeNames: { '#done': chunksDoneName('tally') },
    ExpressionAttributeValues: { ':one': 1, ':run': run.run_id },
  });

/** The ids of the entries whose aggregate item does not exist (one strongly consistent read per 100). */
async function absentItems(entries: readonly Entry[]): Promise<Set<string>> {
  const present = await presentKeys(entries.map((entry) => entry.key));
  return new Set(entries.map((entry) => itemKeyId(entry.key)).filter((id) => !present.has(id)));
}
