import { allFilters } from '../../db/reads.ts';
import type { Counters, FeedFilter } from './feed-repository.ts';

/**
 * The FilterExpressions and the matching totals of the feed lists. Pure: the totals are sums of maintained
 * counters (see feed-aggregates.ts), chosen by the same visibility the filter applies, so a list's `total` counts
 * exactly the feeds its pages can show.
 */

/**
 * A caller in more members-only spaces than this is shown the feeds of the spaces among them that have the most
 * published feeds (and counted the same way): the filter names every space id, and DynamoDB caps an expression at
 * 4 KB. Far above any real membership count; the bound keeps the request valid whatever the data.
 */
export const MAX_FILTER_SPACES = 300;
/** DynamoDB's limit of operands in one `IN`. */
const IN_OPERANDS = 100;

/** Filters that must all hold, as one. */
export const allOf = allFilters;

export const statusIs = (status: string): FeedFilter => ({
  expression: '#status = :status',
  names: { '#status': 'status' },
  values: { ':status': status },
});

export const spaceIs = (spaceId: number): FeedFilter => ({
  expression: '#space = :space',
  names: { '#space': 'space_id' },
  values: { ':space': spaceId },
});

export const authorIs = (userId: number): FeedFilter => ({
  expression: '#author = :author',
  names: { '#author': 'user_id' },
  values: { ':author': userId },
});

/** Feeds everyone may see, or of one of these (members-only) spaces. */
export function visibleIn(memberSpaceIds: readonly number[]): FeedFilter {
  const names: Record<string, string> = { '#visibility': 'space_visibility' };
  const values: Record<string, unknown> = { ':public': 'public' };
  const terms = ['#visibility = :public'];
  for (let start = 0; start < memberSpaceIds.length; start += IN_OPERANDS) {
    const chunk = memberSpaceIds.slice(start, start + IN_OPERANDS).map((spaceId, index) => {
      values[`:m${start + index}`] = spaceId;
      return `:m${start + index}`;
    });
    names['#space'] = 'space_id';
    terms.push(`#space IN (${chunk.join(', ')})`);
  }
  return { expression: terms.join(' OR '), names, values };
}

/** The in-memory form of `visibleIn`, for lists read without a FilterExpression (the timeline's shards). */
export function visibleListing(
  memberSpaceIds: readonly number[],
): (listing: { space_id: number | null; space_visibility: string }) => boolean {
  const spaces = new Set(memberSpaceIds);
  return (listing) =>
    listing.space_visibility === 'public' || (listing.space_id !== null && spaces.has(listing.space_id));
}

/**
 * The members-only spaces whose feeds a caller sees in a list: those among `counted` (space id → published feeds
 * in the list's scope) the caller belongs to, at most MAX_FILTER_SPACES (the fullest first).
 */
export function visibleMemberSpaces(
  counted: ReadonlyMap<number, number>,
  memberSpaceIds: ReadonlySet<number>,
): number[] {
  return [...counted]
    .filter(([spaceId, count]) => count > 0 && memberSpaceIds.has(spaceId))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_FILTER_SPACES)
    .map(([spaceId]) => spaceId);
}

/** Counters named `<prefix><spaceId>` as space id → count. */
export function countersBySpace(counters: Counters, prefix: string): Map<number, number> {
  const bySpace = new Map<number, number>();
  for (const [name, count] of Object.entries(counters)) {
    if (!name.startsWith(prefix)) continue;
    const spaceId = Number(name.slice(prefix.length));
    if (Number.isInteger(spaceId)) bySpace.set(spaceId, (bySpace.get(spaceId) ?? 0) + count);
  }
  return bySpace;
}

export const sumOf = (bySpace: ReadonlyMap<number, number>, spaceIds?: readonly number[]): number =>
  (spaceIds ?? [...bySpace.keys()]).reduce((sum, spaceId) => sum + (bySpace.get(spaceId) ?? 0), 0);

/** A topic feed counter `<topic set>|<p|m><spaceId>` read back (see feed-aggregates.ts). */
export interface TopicCounter {
  readonly visibleToAll: boolean;
  readonly spaceId: number;
  readonly count: number;
}

export function parseTopicCounters(counters: Counters): TopicCounter[] {
  return Object.entries(counters).flatMap(([name, count]) => {
    const match = /\|([pm])(\d+)$/.exec(name);
    return match ? [{ visibleToAll: match[1] === 'p', spaceId: Number(match[2]), count }] : [];
  });
}
