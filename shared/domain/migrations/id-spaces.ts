import * as v from 'valibot';
import { type MigrationIdSpaceName, migrationIdSpaceKey } from '../../db/keys/migrations.ts';
import type { SequenceName } from '../../db/keys/sequences.ts';
import { tableName } from '../../db/client.ts';
import { getItem } from '../../db/reads.ts';
import { nextId } from '../../db/sequence.ts';
import { putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';

const integer = v.pipe(v.number(), v.integer());
/** `run_id`: the run that reserved the segment (absent on segments older than the field). */
const SegmentSchema = v.object({
  from: integer,
  to: integer,
  first: integer,
  run_id: v.optional(v.string()),
});
type Segment = v.InferOutput<typeof SegmentSchema>;
const IdSpaceItemSchema = v.object({ segments: v.array(SegmentSchema), version: integer });

/** The sequence each id space takes its blocks from (images are media). */
const SEQUENCE_OF: Record<MigrationIdSpaceName, SequenceName> = {
  space: 'space',
  user: 'user',
  post: 'post',
  comment: 'comment',
  member_avatar: 'media',
  member_cover: 'media',
  group_avatar: 'media',
  group_cover: 'media',
};

/**
 * Source id → target id, the same for every delivery and every run: source id `s` inside a segment `[from, to]`
 * is target id `first + s - from`, where `[first, first + to - from]` is a block the segment reserved from the
 * target's sequence (so no other writer ever takes those ids). This is what lets a chunk write its targets with
 * plain idempotent puts: a redelivery, a retry after a worker died, or a later run computes the same keys, and the
 * ledger (ledger.ts) says which of them a run has counted. An id of no segment is one the source did not have when
 * the space was last extended; `targetIds` extends it first.
 */
export class IdSpace {
  readonly name: MigrationIdSpaceName;
  readonly #segments: readonly Segment[];

  constructor(name: MigrationIdSpaceName, segments: readonly Segment[]) {
    this.name = name;
    this.#segments = [...segments].sort((a, b) => a.from - b.from);
  }

  targetOf(sourceId: number): number | undefined {
    const segment = this.#segments.find((s) => s.from <= sourceId && sourceId <= s.to);
    return segment && segment.first + sourceId - segment.from;
  }

  /** The target of an id this space covers (as `idSpaceCovering` made it): asking for another is a bug. */
  coveredTarget(sourceId: number): number {
    const target = this.targetOf(sourceId);
    if (target === undefined)
      throw new Error(`the ${this.name} id space does not cover source id ${sourceId}`);
    return target;
  }

  covers(sourceId: number): boolean {
    return this.targetOf(sourceId) !== undefined;
  }

  /** The run that reserved the segment of this id: no earlier run can have written a target there. */
  reservedBy(sourceId: number): string | undefined {
    return this.#segments.find((s) => s.from <= sourceId && sourceId <= s.to)?.run_id;
  }

  /** The parts of `[from, to]` no segment covers. */
  gaps(from: number, to: number): { from: number; to: number }[] {
    const gaps: { from: number; to: number }[] = [];
    let next = from;
    for (const segment of this.#segments) {
      if (segment.to < next) continue;
      if (segment.from > to) break;
      if (segment.from > next) gaps.push({ from: next, to: segment.from - 1 });
      next = segment.to + 1;
    }
    if (next <= to) gaps.push({ from: next, to });
    return gaps;
  }

  get segments(): readonly Segment[] {
    return this.#segments;
  }
}

/**
 * This process's copies, per table (a test process may meet several); segments are only appended, so a copy stays
 * right for every id it covers.
 */
const cached = new Map<string, IdSpace>();
const cacheKey = (source: string, name: MigrationIdSpaceName) => `${tableName()}\u0000${source}\u0000${name}`;

/** The id space, extended first so it covers `[from, to]` (the source's ids of that family). */
export async function ensureIdSpace(
  source: string,
  name: MigrationIdSpaceName,
  from: number,
  to: number,
  runId?: string,
): Promise<IdSpace> {
  const key = migrationIdSpaceKey(source, name);
  for (let attempt = 0; attempt < 10; attempt++) {
    const stored = await getItem(key, IdSpaceItemSchema, { consistent: true });
    const space = new IdSpace(name, stored?.segments ?? []);
    const gaps = from <= to ? space.gaps(from, to) : [];
    if (gaps.length === 0) {
      cached.set(cacheKey(source, name), space);
      return space;
    }
    const added: Segment[] = [];
    for (const gap of gaps)
      added.push({
        ...gap,
        first: await nextId(SEQUENCE_OF[name], gap.to - gap.from + 1),
        ...(runId ? { run_id: runId } : {}),
      });
    const version = stored?.version ?? 0;
    // Another worker extending the same space at once: the loser's blocks stay unused (gaps in the sequence).
    const outcome = await transactWriteIfConditionsHold([
      putAction(
        {
          ...key,
          entity: 'migration_id_space',
          segments: [...(stored?.segments ?? []), ...added],
          version: version + 1,
        },
        stored
          ? {
              condition: {
                ConditionExpression: 'version = :version',
                ExpressionAttributeValues: { ':version': version },
              },
            }
          : { ifAbsent: true },
      ),
    ]);
    if (outcome.written) {
      const extended = new IdSpace(name, [...(stored?.segments ?? []), ...added]);
      cached.set(cacheKey(source, name), extended);
      return extended;
    }
  }
  throw new Error(`the ${name} id space of ${source} could not be extended`);
}

/**
 * The id space covering every source id given (extended first, for `runId`, when one is not covered yet), from this
 * process's copy when it covers them all.
 */
export async function idSpaceCovering(
  source: string,
  name: MigrationIdSpaceName,
  sourceIds: readonly number[],
  runId?: string,
): Promise<IdSpace> {
  let space = cached.get(cacheKey(source, name));
  const uncovered = sourceIds.filter((id) => !space?.covers(id));
  if (!space || uncovered.length > 0) {
    const ids = uncovered.length > 0 ? uncovered : sourceIds;
    space = await ensureIdSpace(source, name, Math.min(...ids), Math.max(...ids), runId);
  }
  return space;
}

/** Source id → target id, for the source ids it was made for: `of` any of them has an answer. */
export class TargetIds implements Iterable<[number, number]> {
  readonly #targets: ReadonlyMap<number, number>;

  constructor(targets: Iterable<[number, number]>) {
    this.#targets = new Map(targets);
  }

  of(sourceId: number): number {
    const target = this.#targets.get(sourceId);
    if (target === undefined) throw new Error(`no target id was looked up for source id ${sourceId}`);
    return target;
  }

  values(): IterableIterator<number> {
    return this.#targets.values();
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.#targets.entries();
  }
}

/** The target id of every source id given (see `idSpaceCovering`). */
export async function targetIds(
  source: string,
  name: MigrationIdSpaceName,
  sourceIds: readonly number[],
  runId?: string,
): Promise<TargetIds> {
  if (sourceIds.length === 0) return new TargetIds([]);
  const space = await idSpaceCovering(source, name, sourceIds, runId);
  return new TargetIds(sourceIds.map((id) => [id, space.coveredTarget(id)]));
}

/** The stored id space as it is (tests and tools): undefined when no run has reserved one yet. */
export async function readIdSpace(source: string, name: MigrationIdSpaceName): Promise<IdSpace | undefined> {
  const stored = await getItem(migrationIdSpaceKey(source, name), IdSpaceItemSchema, { consistent: true });
  return stored && new IdSpace(name, stored.segments);
}
