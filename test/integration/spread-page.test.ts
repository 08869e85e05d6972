import { randomBytes } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { tablePartition } from '../../shared/db/partition.ts';
import { firstReadLimit, querySpreadWindow } from '../../shared/db/spread-page.ts';

/**
 * A list spread over several partitions (the timeline's shards, shared/db/spread-page.ts), against DynamoDB Local:
 * whatever way the newest items fall over the partitions, and whatever the `keep` check drops, the window is
 * exactly the newest kept items of the union, newest first. Each test writes partitions of its own.
 */
const Entry = v.object({ n: v.number(), shown: v.boolean() });
type Entry = v.InferOutput<typeof Entry>;

async function spreadList(placement: (n: number) => number, count: number, shown: (n: number) => boolean) {
  const tag = randomBytes(6).toString('hex');
  const sources = [0, 1, 2, 3].map((shard) => tablePartition(`TESTSPREAD#${tag}#${shard}`));
  const items = Array.from({ length: count }, (_, n) => ({
    pk: `TESTSPREAD#${tag}#${placement(n)}`,
    sk: `2026-01-01T00:00:00.000Z#${String(n).padStart(12, '0')}`,
    n,
    shown: shown(n),
  }));
  for (let start = 0; start < items.length; start += 25) {
    await db().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } })),
        },
      }),
    );
  }
  // Newest first: the highest n.
  const expected = (window: number) =>
    items
      .filter((item) => item.shown)
      .map((item) => item.n)
      .sort((a, b) => b - a)
      .slice(0, window);
  return { sources, expected };
}

const numbers = (entries: Entry[]) => entries.map((entry) => entry.n);

describe('a list spread over partitions', () => {
  it('reads about its share of a page from each partition, and at least the page from one', () => {
    expect(firstReadLimit(20, 4)).toBe(10);
    expect(firstReadLimit(20, 1)).toBe(20);
    expect(firstReadLimit(3, 4)).toBe(3);
    expect(firstReadLimit(200, 4)).toBeLessThan(80);
  });

  it('is exact when the items fall evenly, unevenly, or all on one partition, in at most two rounds', async () => {
    for (const placement of [(n: number) => n % 4, (n: number) => (n % 7 === 0 ? 1 : 0), () => 3]) {
      const { sources, expected } = await spreadList(placement, 70, () => true);
      for (const window of [1, 20, 40, 69, 70, 90]) {
        const page = await querySpreadWindow({ sources, schema: Entry, window });
        expect(numbers(page.items)).toEqual(expected(window));
        expect(page.rounds).toBeLessThanOrEqual(2);
      }
    }
  });

  /** `shown`, in memory and as the FilterExpression of the reads after the first, known after a moment. */
  const shownOnly = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      keeps: (entry: Entry) => entry.shown,
      filter: { expression: '#shown = :shown', names: { '#shown': 'shown' }, values: { ':shown': true } },
    };
  };

  it('reads on where `keep` drops items, in one more round when the first reads kept a window', async () => {
    // The newest 30 items of partition 2 are hidden: partition 2 must be read past them.
    const hidden = (n: number) => n % 4 === 2 && n > 40;
    const { sources, expected } = await spreadList(
      (n) => n % 4,
      160,
      (n) => !hidden(n),
    );
    for (const window of [10, 20, 60]) {
      const page = await querySpreadWindow({ sources, schema: Entry, window, keep: shownOnly });
      expect(numbers(page.items)).toEqual(expected(window));
      expect(page.rounds).toBeLessThanOrEqual(2);
    }
    const everything = await querySpreadWindow({
      sources,
      schema: Entry,
      window: 200,
      keep: async () => undefined,
    });
    expect(everything.items).toHaveLength(160);
  });

  it('reads a sparse list (most items dropped) for what is missing at the density kept, then down to the window', async () => {
    // One item in nine shown, and none of the newest 60: the first reads keep nothing.
    const shown = (n: number) => n % 9 === 0 && n < 340;
    const { sources, expected } = await spreadList((n) => n % 4, 400, shown);
    for (const window of [5, 20]) {
      const page = await querySpreadWindow({ sources, schema: Entry, window, keep: shownOnly });
      expect(numbers(page.items)).toEqual(expected(window));
      expect(page.rounds).toBeLessThanOrEqual(3);
    }
    // Thinly but evenly shown: the first reads keep some, the second reads the rest of the window.
    const even = await spreadList(
      (n) => n % 4,
      200,
      (n) => n % 3 === 0,
    );
    const page = await querySpreadWindow({
      sources: even.sources,
      schema: Entry,
      window: 20,
      keep: shownOnly,
    });
    expect(numbers(page.items)).toEqual(even.expected(20));
    expect(page.rounds).toBeLessThanOrEqual(3);
  });

  it('reads past a burst of newest items the caller may not see in one more round, whatever share the counters give', async () => {
    // Most of the list is shown (the counters' share says 0.8), but its newest 150 items are not (a busy private
    // space): the first reads keep nothing, so what they read bounds the density, not the list-wide share (stepping
    // by the share would take a round per 17 items or so).
    const shown = (n: number) => n < 250;
    const { sources, expected } = await spreadList((n) => n % 4, 400, shown);
    const withShare = async () => ({ ...(await shownOnly()), share: 0.8 });
    const page = await querySpreadWindow({ sources, schema: Entry, window: 20, keep: withShare });
    expect(numbers(page.items)).toEqual(expected(20));
    expect(page.rounds).toBeLessThanOrEqual(2);
  });
});
