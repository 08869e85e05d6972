import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { MIGRATION_ERRORS_BYTES } from '../../vocabulary/migrations.ts';

/** One reported row: the result item, the source id (or id range of a chunk given up) and why. */
export interface MigrationError {
  readonly item: string;
  readonly id: string;
  readonly error: string;
}

const PackedSchema = v.array(v.tuple([v.string(), v.string(), v.string()]));

/**
 * A run's errors stay in its run item, so the status is one read. Each counted chunk appends its errors as one
 * gzipped element (ids and messages repeat, so an error takes about ten bytes) and adds the element's size to the
 * run's `errors_bytes`. Once that reaches MIGRATION_ERRORS_BYTES nothing more is appended: the item stays far
 * under DynamoDB's 400 KB and a poll stays a small read. Every failure is counted in `failed` either way.
 *
 * Answers the chunk's element, cut to fit `bytesLeft` (the run's room as last read: a chunk counted meanwhile may
 * take the run past the limit by at most one element), or nothing when there is nothing to keep.
 */
export function packChunkErrors(
  errors: readonly MigrationError[],
  bytesLeft: number,
): Uint8Array | undefined {
  for (let kept = errors.length; kept > 0; kept = Math.floor(kept / 2)) {
    const packed = gzipSync(JSON.stringify(errors.slice(0, kept).map((e) => [e.item, e.id, e.error])));
    if (packed.byteLength <= bytesLeft) return packed;
  }
  return undefined;
}

export const errorBytesLeft = (run: { readonly errors_bytes: number }): number =>
  Math.max(0, MIGRATION_ERRORS_BYTES - run.errors_bytes);

/** The run's errors in the order their chunks were counted (`errors` is the plain list runs kept before packing). */
export function unpackRunErrors(run: {
  readonly errors: readonly MigrationError[];
  readonly errors_packed: readonly Uint8Array[];
}): MigrationError[] {
  return [
    ...run.errors,
    ...run.errors_packed.flatMap((packed) =>
      v
        .parse(PackedSchema, JSON.parse(gunzipSync(packed).toString('utf8')))
        .map(([item, id, error]) => ({ item, id, error })),
    ),
  ];
}
