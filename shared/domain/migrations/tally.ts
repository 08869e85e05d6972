import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { CounterDeltas } from '../../db/counters.ts';
import { migrationTallyKey } from '../../db/keys/migrations.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';

/**
 * Aggregates a run moves (authors' stats and points, spaces' member and post counts, the timeline totals), summed
 * over the whole run and moved once per counter item at its end, instead of once per chunk: an author with content
 * in every chunk is one update, not one per chunk. Each counted chunk stores its sums, cut into shards by counter
 * item, in the transaction that counts it (so only counted chunks contribute, each once); the run's last step
 * applies each shard (`applyTallyShard`).
 */
export const TALLY_SHARDS = 16;

/** One counter item's sums as stored: `[pk, sk, deltas, identity?]`. */
type StoredCounter = [string, string, Record<string, number>, Record<string, unknown>?];
/**
 * A shard's counters are stored gzipped JSON in one binary attribute: a chunk's tally names thousands of counter
 * items with long, repeated counter names, which compress ~10× and then cost the store one attribute to handle.
 */
export const TallyItemSchema = v.object({ counters: v.instance(Uint8Array) });
const packCounters = (counters: readonly StoredCounter[]) => gzipSync(JSON.stringify(counters));
export function unpackCounters(packed: Uint8Array): StoredCounter[] {
  const counters: unknown = JSON.parse(gunzipSync(packed).toString('utf8'));
  // Written by this module only: a shape check, not a schema walk over thousands of entries.
  if (!Array.isArray(counters) || !counters.every((c) => Array.isArray(c) && typeof c[0] === 'string'))
    throw new Error('a stored tally is malformed');
  return counters as StoredCounter[];
}

/** FNV-1a of the partition key: a counter item always lands in the same shard. */
export function tallyShardOf(key: ItemKey): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.pk.length; i++) hash = Math.imul(hash ^ key.pk.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % TALLY_SHARDS;
}

/** Counter moves summed per item; `identity` is what a first increment writes on an item it creates. */
export class Tally {
  readonly #entries = new Map<
    string,
    { key: ItemKey; deltas: CounterDeltas; identity?: Readonly<Record<string, unknown>> }
  >();

  add(key: ItemKey, deltas: Readonly<Record<string, number>>, identity?: Readonly<Record<string, unknown>>) {
    const id = itemKeyId(key);
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

  /** The stored shards of a chunk's (or a created object's) tally: one item per shard holding any counter. */
  shardItems(runId: string, origin: string, n: number) {
    const shards = new Map<number, StoredCounter[]>();
    for (const entry of this.entries()) {
      const shard = tallyShardOf(entry.key);
      const counters = shards.get(shard) ?? [];
      const deltas = Object.fromEntries(entry.deltas.entries());
      counters.push(
        entry.identity
          ? [entry.key.pk, entry.key.sk, deltas, { ...entry.identity }]
          : [entry.key.pk, entry.key.sk, deltas],
      );
      shards.set(shard, counters);
    }
    return [...shards].map(([shard, counters]) => ({
      ...migrationTallyKey(runId, shard, origin, n),
      entity: 'migration_tally',
      run_id: runId,
      counters: packCounters(counters),
    }));
  }
}
