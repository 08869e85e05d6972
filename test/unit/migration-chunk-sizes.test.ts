import { describe, expect, it } from 'vitest';
import { chunkSize } from '../../shared/domain/migrations/chunk-sizes.ts';

/** The sizes a phase of `rows` rows is planned in, when the source holds exactly the estimate. */
function plan(rows: number, full: number, lanes: number): number[] {
  const sizes: number[] = [];
  for (let planned = 0; planned < rows; ) {
    const size = Math.min(chunkSize(full, lanes, { estimated: rows, planned }, sizes.length), rows - planned);
    sizes.push(size);
    planned += size;
  }
  return sizes;
}

describe('chunk sizes along a phase', () => {
  it('staggers the first chunks: 1/4, 2/4 and 3/4 of a full one for four workers, then full chunks', () => {
    expect(plan(37_117, 1000, 4).slice(0, 6)).toEqual([250, 500, 750, 1000, 1000, 1000]);
  });

  it('shrinks the chunks once fewer than one full chunk per worker remains, never under 1/4 of a full one', () => {
    const sizes = plan(37_117, 1000, 4);
    const tail = sizes.slice(sizes.lastIndexOf(1000) + 1);
    expect(tail.length).toBeGreaterThanOrEqual(4);
    expect(tail.slice(0, -1).every((size, i) => size >= 250 && size >= (tail[i + 1] ?? 0))).toBe(true);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(37_117);
  });

  it('keeps full chunks for a phase of fewer than two full chunks per worker, or a single worker', () => {
    expect(plan(200, 50, 4)).toEqual([50, 50, 50, 50]);
    expect(plan(7_999, 1000, 4)).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 999]);
    expect(plan(9_000, 1000, 1).every((size) => size === 1000)).toBe(true);
  });

  it('goes on in the smallest chunks when the source holds more than the estimate', () => {
    expect(chunkSize(1000, 4, { estimated: 10_000, planned: 12_000 }, 30)).toBe(250);
  });
});
