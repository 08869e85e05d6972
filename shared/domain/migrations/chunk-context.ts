import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import { sourceDateToIso } from '../../integrations/buddypress/source.ts';
import type { MigrationCounted } from '../../vocabulary/migrations.ts';
import { ChunkWrites } from './chunk-writes.ts';
import { LedgerRecord } from './ledger.ts';
import { counterName, type Outcome, type RunItem } from './run-item.ts';

/** What a chunk's processing needs, and where it tallies what it did (turned into the chunk's record). */
export class ChunkContext {
  readonly counters: Record<string, number> = {};
  readonly errors: { item: string; id: string; error: string }[] = [];
  /** The chunk's items and aggregate moves, written after the rows are mapped (process-migration-message.ts). */
  readonly writes = new ChunkWrites();
  /** Source rows this chunk migrates for the first time: they enter the ledger when it is counted. */
  readonly ledger = new LedgerRecord();

  readonly run: RunItem;
  readonly source: BuddypressSource;
  readonly chunkNo: number;
  /**
   * Whether an earlier delivery may have written some of this chunk's targets (it started and was not counted):
   * then targets are read before they are put, so nothing a member did since (a reaction) is overwritten.
   */
  readonly retry: boolean;

  constructor(run: RunItem, source: BuddypressSource, chunkNo: number, retry: boolean) {
    this.run = run;
    this.source = source;
    this.chunkNo = chunkNo;
    this.retry = retry;
  }

  /** The run's clock: every delivery of every chunk stamps the same time where the source has none. */
  get now(): string {
    return this.run.started_at;
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

  /** A row migrated for the first time: counted, and recorded in the ledger with the chunk. */
  created(item: Exclude<MigrationCounted, 'comments'>, sourceId: number): void {
    this.count(item, 'migrated');
    this.ledger.addRow(sourceId);
  }

  /** A comment migrated for the first time, recorded with its root. */
  createdComment(rootId: number, commentId: number): void {
    this.count('comments', 'migrated');
    this.ledger.addComment(rootId, commentId);
  }
}

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
