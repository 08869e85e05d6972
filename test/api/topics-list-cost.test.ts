import { beforeAll, describe, expect, it } from 'vitest';
import { METER_HEADER } from '../../infra/local/dynamodb-meter.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { importTopicsWithFeeds, listTopics, type Topic, uniqueToken } from '../support/topics.ts';

/**
 * GET /admin/topics at the contract's largest page (per_page 100) stays within issue 20's round-trip rule: the
 * stats and the page, then one BatchGetItem of one feed totals item per topic for the `posts_count`s (2 rounds, 3
 * reads, no write), and every count is exact. With the four `posts_count` shards a topic it took four
 * BatchGetItems. Measured by the local stack's per-request meter (the `x-local-dynamodb` answer header).
 */
const PAGE = 100;

let admin: TestUser;
let author: TestUser;
let shelf: number;
let childIds: number[];

beforeAll(async () => {
  [admin, author] = await Promise.all([createTestUser({ communityRole: 'admin' }), createTestUser()]);
  const token = uniqueToken();
  const children = Array.from({ length: PAGE }, (_, i) => ({
    ref: `t${i}`,
    title: `Volume ${i} ${token}`,
    slug: `volume-${i}-${token}`,
    parent: 'shelf',
    serial: i + 1,
  }));
  // Published feeds carry topics 0, 40 (twice, once with 99) and 99; a draft carries 40 and counts nowhere.
  const feeds = [
    { ref: 'a', topics: ['t0'] },
    { ref: 'b', topics: ['t40', 't99'] },
    { ref: 'c', topics: ['t40'] },
    { ref: 'd', topics: ['t40'], status: 'draft' },
  ];
  const ids = await importTopicsWithFeeds(
    author,
    token,
    [{ ref: 'shelf', title: `Shelf ${token}`, slug: `shelf-${token}` }, ...children],
    feeds,
  );
  shelf = ids.topics.shelf as number;
  childIds = children.map((child) => ids.topics[child.ref] as number);
}, 60_000);

describe('GET /admin/topics cost', () => {
  it(`answers a page of ${PAGE} topics in 2 rounds and 3 reads, with exact posts_count`, async () => {
    const response = await listTopics(admin, { parent_id: shelf, per_page: PAGE });
    expect(response.status, response.text).toBe(200);
    const meter = JSON.parse(response.headers.get(METER_HEADER) ?? '{}') as {
      rounds: number;
      reads: number;
      writes: number;
      calls: [string, string, string][];
    };
    expect(meter).toMatchObject({ rounds: 2, reads: 3, writes: 0 });
    expect(meter.calls.filter(([operation]) => operation === 'BatchGetItem')).toHaveLength(1);

    const topics: Topic[] = response.body.topics;
    expect(topics.map((topic) => topic.id)).toEqual(childIds);
    const counts = Object.fromEntries(topics.map((topic) => [topic.id, topic.posts_count]));
    const expected = Object.fromEntries(childIds.map((id) => [id, 0]));
    Object.assign(expected, {
      [childIds[0] as number]: 1,
      [childIds[40] as number]: 2,
      [childIds[99] as number]: 1,
    });
    expect(counts).toEqual(expected);
  });
});
