import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import { sourceDateToIso } from '../../integrations/buddypress/source.ts';
import type { SequenceName } from '../../db/keys/sequences.ts';
import type { MigrationCounted, MigrationItem } from '../../vocabulary/migrations.ts';
import { type ChunkReservation, reserveChunk } from './chunk-reservation.ts';
import { ChunkWrites } from './chunk-writes.ts';
import { counterName, type Outcome, type RunItem } from './run-item.ts';

/** What a chunk's processing needs, and where it tallies what it did (turned into the chunk's record). */
export class ChunkContext {
  readonly counters: Record<string, number> = {};
  readonly errors: { item: string; id: string; error: string }[] = [];
  /** The chunk's items and aggregate moves, written after the rows are mapped (process-migration-message.ts). */
  readonly writes = new ChunkWrites();

  readonly run: RunItem;
  readonly source: BuddypressSource;
  /** The chunk's clock: the processing time, until a reservation pins it for every delivery. */
  now: string;
  readonly chunkNo: number;

  constructor(run: RunItem, source: BuddypressSource, now: string, chunkNo: number) {
    this.run = run;
    this.source = source;
    this.now = now;
    this.chunkNo = chunkNo;
  }

  /** Pins the chunk's ids and clock (chunk-reservation.ts): the same on every delivery. */
  async reserve(
    phase: MigrationItem,
    counts: Partial<Record<SequenceName, number>>,
  ): Promise<ChunkReservation> {
    const reservation = await reserveChunk(this.run.run_id, phase, this.chunkNo, counts);
    this.now = reservation.now;
    return reservation;
  }

  get skipExisting(): boolean {
    return this.run.options.skip_existing !== false;
  }

  /** The source date when `preserve_dates` is on and the date is known, else the run's clock. */
  dateOf(sourceDate: string): string {
    return (this.run.options.preserve_dates !== false && sourceDateToIso(sourceDate)) || this.now;
  }

  count(item: MigrationCounted, outcome: Outcome): void {
    const name = counterName(item, outcome);
    this.counters[name] = (this.counters[name] ?? 0) + 1;
  }

  fail(item: MigrationCounted, sourceId: number, error: string): void {
    this.count(item, 'failed');
    this.errors.push({ item, id: String(sourceId), error });
  }
}

/** How a row stands against its mapping: new, already written by this run, or by an earlier one. */
export type MapState = 'new' | 'this_run' | 'earlier_run';
export const mapState = (
  map: { run_id: string; created_run_id?: string | undefined } | undefined,
  runId: string,
): MapState =>
  map === undefined ? 'new' : (map.created_run_id ?? map.run_id) === runId ? 'this_run' : 'earlier_run';

/** BuddyPress HTML (mention anchors, entities) as the plain text our messages store. */
export function sourceHtmlToText(html: string): string {
  return html
    .replace(/<a[^>]*class="[^"]*bp-suggestions-mention[^"]*"[^>]*>(@[^<]+)<\/a>/g, '$1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .trim();
}
