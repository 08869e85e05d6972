import * as v from 'valibot';
import { migrationChunkReservationKey } from '../../db/keys/migrations.ts';
import type { SequenceName } from '../../db/keys/sequences.ts';
import { getItem } from '../../db/reads.ts';
import { nextId } from '../../db/sequence.ts';
import { putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import { chunkKind } from './run-item.ts';

const ReservationSchema = v.object({
  now: v.string(),
  /** Sequence name → { first id, how many }. */
  blocks: v.record(v.string(), v.object({ first: v.number(), count: v.number() })),
});
export type ChunkReservation = v.InferOutput<typeof ReservationSchema>;

/**
 * The chunk's ids and clock, the same for every delivery: the first delivery takes blocks from the sequences and
 * records them with a conditional put; a later (or concurrent) one reads that record. Target ids are then the
 * block's first id plus the row's position in the chunk, so a chunk written twice (redelivered, or its worker
 * killed mid-write) writes the same items, never a second copy. A redelivery finding more rows than reserved
 * (the source changed under the run) fails the chunk rather than invent ids.
 */
export async function reserveChunk(
  runId: string,
  phase: MigrationItem,
  chunkNo: number,
  counts: Partial<Record<SequenceName, number>>,
): Promise<ChunkReservation> {
  const key = migrationChunkReservationKey(runId, chunkKind(phase), chunkNo);
  let reservation = await getItem(key, ReservationSchema, { consistent: true });
  if (!reservation) {
    const blocks: ChunkReservation['blocks'] = {};
    for (const [name, count] of Object.entries(counts) as [SequenceName, number][])
      blocks[name] = { first: count > 0 ? await nextId(name, count) : 0, count };
    const fresh = { now: nowIso(), blocks };
    const outcome = await transactWriteIfConditionsHold([
      putAction({ ...key, entity: 'migration_reservation', run_id: runId, ...fresh }, { ifAbsent: true }),
    ]);
    reservation = outcome.written ? fresh : await getItem(key, ReservationSchema, { consistent: true });
    if (!reservation) throw new Error(`chunk ${phase} ${chunkNo}: reservation vanished`);
  }
  for (const [name, count] of Object.entries(counts))
    if (count > (reservation.blocks[name]?.count ?? 0))
      throw new Error(
        `chunk ${phase} ${chunkNo}: ${count} ${name} rows, ${reservation.blocks[name]?.count ?? 0} reserved`,
      );
  return reservation;
}

/** The id of the row at `index` (its position in the chunk) from the chunk's block of `name`. */
export const reservedId = (reservation: ChunkReservation, name: SequenceName, index: number): number =>
  reservation.blocks[name]!.first + index;
