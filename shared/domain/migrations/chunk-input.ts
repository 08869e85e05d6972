import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import { sourceDateToIso } from '../../integrations/buddypress/source.ts';
import type { RunItem } from './run-item.ts';

/**
 * What every stage of a chunk reads, and nothing it writes: the run, the source, the chunk's number and whether an
 * earlier delivery may have written some of its targets. Stages answer values (chunk-plan.ts), never fill this.
 */
export class ChunkInput {
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
