/**
 * How many source rows each chunk of a phase takes, so the `migrations` queue's workers stay busy from the phase's
 * first chunk to its last. The store is what every chunk waits on; a chunk leaves it idle while it reads the source
 * and maps its rows, and at the end of a phase while fewer chunks remain than workers.
 *
 * - **Staggered start**: the first `lanes − 1` chunks take 1/lanes, 2/lanes, … of the full size, so the workers
 *   that start together finish their first chunks at evenly spread times; with full chunks after that, each
 *   worker's reading and mapping then overlaps the others' writes, instead of all of them reading at once and
 *   writing at once, wave after wave.
 * - **Shrinking end**: once fewer than `lanes` full chunks remain (by the run's estimated total), a chunk takes a
 *   `lanes`-th of what remains (never under 1/lanes of the full size), so the last chunks end close together
 *   rather than one full chunk running alone.
 *
 * A phase smaller than two full chunks per worker keeps full chunks (a few chunks, whose order matters little).
 * Sizes only cut the keyset ranges: whatever the estimate, planning goes on until the source has no row left.
 */
export function chunkSize(
  full: number,
  lanes: number,
  /** The phase's estimated rows (the run's totals) and the rows the chunks planned so far hold. */
  rows: { readonly estimated: number; readonly planned: number },
  chunkNo: number,
): number {
  if (lanes <= 1 || rows.estimated < 2 * lanes * full) return full;
  const least = Math.ceil(full / lanes);
  if (chunkNo < lanes - 1) return least * (chunkNo + 1);
  const remaining = rows.estimated - rows.planned;
  return Math.max(least, Math.min(full, Math.ceil(remaining / lanes)));
}
