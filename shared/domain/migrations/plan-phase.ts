import { queueNamed } from '../../catalogue/queues.ts';
import type { MigrationIdSpaceName } from '../../db/keys/migrations.ts';
import type { BuddypressSource, SourceTable } from '../../integrations/buddypress/source.ts';
import { publishBatch } from '../../integrations/queue-publisher.ts';
import type { MigrationMessage } from '../../messages/index.ts';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { advanceIfPhaseDone } from './advance-run.ts';
import { chunkSize } from './chunk-sizes.ts';
import { ensureIdSpace } from './id-spaces.ts';
import { LEDGER_BLOCK, LEDGER_BLOCKS_PER_CHUNK } from './ledger.ts';
import { imagesPending } from './image-copies.ts';
import { imagesWanted } from './source-images.ts';
import type { RunItem, RunPhase } from './run-item.ts';
import { setPhaseChunks } from './run-repository.ts';
import { TALLY_SHARDS } from './tally.ts';

/**
 * Source rows per full chunk: small enough for one worker invocation (a 1 000-root chunk writes in seconds), big
 * enough that a chunk's writes fill many 25-item batches. The price: a poison chunk counts its whole range failed.
 * A chunk's ids also span fewer than LEDGER_BLOCKS_PER_CHUNK ledger blocks, so its ledger entries fit its count.
 * A big phase's first and last chunks are smaller (chunk-sizes.ts).
 */
export const CHUNK_SIZES: Record<MigrationItem, number> = { groups: 50, members: 1000, activities: 1000 };

/** The id spaces a phase's targets take their ids from, and the source table whose ids they cover. */
const ID_SPACES: Record<MigrationItem, [MigrationIdSpaceName, SourceTable][]> = {
  groups: [
    ['space', 'groups'],
    ['user', 'users'],
  ],
  members: [['user', 'users']],
  activities: [
    ['post', 'activity'],
    ['comment', 'activity'],
    ['user', 'users'],
  ],
};

/** The media ids of copied avatars and covers (only when the run copies images). */
const IMAGE_ID_SPACES: Record<MigrationItem, [MigrationIdSpaceName, SourceTable][]> = {
  groups: [
    ['group_avatar', 'groups'],
    ['group_cover', 'groups'],
    ['member_avatar', 'users'],
    ['member_cover', 'users'],
  ],
  members: [
    ['member_avatar', 'users'],
    ['member_cover', 'users'],
  ],
  activities: [
    ['member_avatar', 'users'],
    ['member_cover', 'users'],
  ],
};

/**
 * Cuts a step into work and records how much before sending any (so no chunk can end the step early): an item
 * phase into keyset ranges of its source rows, after reserving the target ids of everything the source holds
 * now; the tally into its shards, once no image of the run is pending. Planning twice re-sends the same work, which counts once.
 */
export async function planPhase(run: RunItem, source: BuddypressSource | undefined, phase: RunPhase) {
  if (phase === 'tally') {
    // The tally sums the counters the `images` worker stores too: it waits for the run's last images, whose
    // worker plans it then (planTallyIfImagesDone).
    if (await imagesPending(run.run_id)) return;
    await setPhaseChunks(run, phase, TALLY_SHARDS);
    await publishBatch(
      'migrations',
      Array.from({ length: TALLY_SHARDS }, (_, shard) => ({
        kind: 'tally' as const,
        source: 'buddypress' as const,
        run_id: run.run_id,
        shard,
      })),
    );
    return;
  }
  if (!source) throw new Error('The BuddyPress source is not configured.');
  const images = (await imagesWanted({ run })) ? IMAGE_ID_SPACES[phase] : [];
  // Each id space is its own item and takes its blocks by atomic adds: they grow side by side.
  await Promise.all(
    [...ID_SPACES[phase], ...images].map(async ([name, table]) => {
      const range = await source.idRange(table);
      if (range) await ensureIdSpace(run.source, name, range.min, range.max, run.run_id);
    }),
  );
  const chunks: Extract<MigrationMessage, { kind: 'chunk' }>[] = [];
  const lanes = queueNamed('migrations').maxConcurrency;
  const estimated = run.totals[phase] ?? 0;
  for (let after = 0, planned = 0; ; ) {
    const end = await source.nextChunkEnd(
      phase,
      after,
      chunkSize(CHUNK_SIZES[phase], lanes, { estimated, planned }, chunks.length),
      LEDGER_BLOCK * (LEDGER_BLOCKS_PER_CHUNK - 1),
    );
    if (!end) break;
    planned += end.rows;
    chunks.push({
      kind: 'chunk',
      source: 'buddypress',
      run_id: run.run_id,
      phase,
      chunk: chunks.length,
      after,
      up_to: end.upTo,
      rows: end.rows,
    });
    after = end.upTo;
  }
  await setPhaseChunks(run, phase, chunks.length);
  await publishBatch('migrations', chunks);
  if (chunks.length === 0) await advanceIfPhaseDone(run.source, run.run_id, phase);
}
