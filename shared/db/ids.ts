import { randomInt } from 'node:crypto';

/**
 * Integer ids (the contract's ids are integers) that no shared item hands out: each create draws a time-ordered
 * 53-bit id on its own and its creating put is conditional on absence, so a collision (two creates drawing the
 * same id) is refused by DynamoDB and retried with a fresh id (`withFreshId`). No partition is written once per
 * created entity, unlike the per-name counter item of `nextId` (sequence.ts), which only bulk operator paths use.
 *
 * Layout: `id = 2^52 + (milliseconds since ID_EPOCH_MS) × 2^11 + random(0 … 2^11 − 1)`.
 * - Every time id lies in [2^52, 2^53 − 1] = [4 503 599 627 370 496, 9 007 199 254 740 991]: a safe integer
 *   (Number.MAX_SAFE_INTEGER) with exactly 16 digits, the first of them 4 to 9, until 2^41 ms (69 years) after
 *   the epoch, i.e. until 2095.
 * - Ids grow with creation time (to the millisecond; within one millisecond their order is random), so an order
 *   by id is an order by time; lists still sort by `created_at`, then id (sort.ts).
 * - Counter ids (`nextId`: imports, migrations, everything created before time ids) stay below
 *   `COUNTER_ID_CEILING` = 10^11, far below 2^52 (`nextId` refuses a block that would reach it), so the two kinds
 *   never meet. Zero-padded to 12 digits (sort.ts `pad`), a counter id starts with `0` and a time id (16 digits)
 *   with 4–9, so string order still equals numeric order across both kinds without rewriting any stored key.
 * - Unique: the creating put's `attribute_not_exists` decides. Never reused: a later draw carries a later time
 *   unless two clocks disagree, and even then only an id drawn in the same millisecond with the same 11 random
 *   bits could repeat one, which the guard refuses while that entity exists.
 */
export const ID_EPOCH_MS = Date.UTC(2026, 0, 1);
export const TIME_ID_FLOOR = 2 ** 52;
const RANDOM_BITS = 11;
const RANDOM_SPAN = 2 ** RANDOM_BITS;
const TIME_SPAN_MS = 2 ** (52 - RANDOM_BITS);

/** Every id a counter (`nextId`) hands out is below this; every time id is at or above `TIME_ID_FLOOR`. */
export const COUNTER_ID_CEILING = 10 ** 11;

/** A fresh time-ordered id for an entity created at `nowMs` (defaults to now). */
export function newId(nowMs: number = Date.now()): number {
  const elapsed = Math.floor(nowMs) - ID_EPOCH_MS;
  if (elapsed < 0 || elapsed >= TIME_SPAN_MS)
    throw new Error(`No time id for ${new Date(nowMs).toISOString()}`);
  return TIME_ID_FLOOR + elapsed * RANDOM_SPAN + randomInt(RANDOM_SPAN);
}

/** The creation millisecond a time id carries (undefined for a counter id). */
export function idTimeMs(id: number): number | undefined {
  if (!Number.isSafeInteger(id) || id < TIME_ID_FLOOR) return undefined;
  return ID_EPOCH_MS + Math.floor((id - TIME_ID_FLOOR) / RANDOM_SPAN);
}

/**
 * Thrown by a repository when a create's transaction failed only because the new entity's own item already
 * exists (its `attribute_not_exists` guard, the id guard): the id was drawn twice. Any other failed condition (a
 * taken slug or login, a missing parent) is answered as before and never means "draw again".
 */
export class IdTaken extends Error {
  readonly id: number;

  constructor(id: number) {
    super(`id ${id} is already taken`);
    this.id = id;
    this.name = 'IdTaken';
  }
}

export const isIdTaken = (error: unknown): error is IdTaken => error instanceof IdTaken;

/** Draws per create: a repeat is about one in 2^11 per pair of creates in one millisecond; five in a row, never. */
const MAX_DRAWS = 5;

/**
 * Runs `create` with a fresh id, again with another fresh id when it throws `IdTaken`, and passes every other
 * outcome through. `draw` is the id source (tests inject a collision through it).
 */
export async function withFreshId<T>(
  create: (id: number) => Promise<T>,
  draw: () => number = newId,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create(draw());
    } catch (error) {
      if (!isIdTaken(error) || attempt >= MAX_DRAWS) throw error;
    }
  }
}
