import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import {
  commentReactionKey,
  feedStats,
  postKey,
  postListingKey,
  postReactionKey,
} from '../../shared/db/keys/feeds.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { readShardedTotals, shardKeys } from '../../shared/db/sharded-counters.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { createComment } from '../../shared/domain/feeds/create-comment.ts';
import { findSpacePostCount } from '../../shared/domain/feeds/feed-repository.ts';
import { reactToFeed } from '../../shared/domain/feeds/react-to-feed.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, postFeed } from '../support/feeds.ts';

/**
 * Issue 20 (items 2–4) and issue 21 item 20, on the feed write paths:
 * - a like, an unlike and a comment are each one transaction, and none of them writes an item that carries a list's
 *   index keys (the post item carries none; its listing entry, which does, is not touched);
 * - the timeline totals are spread over shards and stay exact under concurrent posts;
 * - the sharded timeline lists every feed, newest first, exactly once across pages.
 * The use cases run in this process, so every DynamoDB call they make is seen by a client middleware.
 */

interface SentTransaction {
  readonly keys: ItemKey[];
}

const sent: SentTransaction[] = [];
let recording = false;

/** A key attribute as the middleware sees it: marshalled (`{ S: … }`) on the low-level client's stack. */
const text = (value: unknown): string =>
  typeof value === 'object' && value !== null && 'S' in value
    ? String((value as { S: unknown }).S)
    : String(value);

beforeAll(() => {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (recording && /^TransactWrite(Items)?Command$/.test(context.commandName ?? '')) {
        const items = (args.input as { TransactItems: Record<string, { Key?: unknown; Item?: unknown }>[] })
          .TransactItems;
        sent.push({
          keys: items.map((action) => {
            const [operation] = Object.values(action);
            const key = (operation?.Key ?? operation?.Item) as Record<string, unknown> | undefined;
            return { pk: text(key?.pk), sk: text(key?.sk) };
          }),
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'transactionRecorder' },
  );
});

afterAll(() => {
  db().middlewareStack.remove('transactionRecorder');
});

async function transactionsOf(work: () => Promise<unknown>): Promise<SentTransaction[]> {
  sent.length = 0;
  recording = true;
  try {
    await work();
  } finally {
    recording = false;
  }
  return [...sent];
}

const callerOf = (user: TestUser): Caller => ({
  id: user.id,
  username: user.username,
  hostRole: 'member',
  communityRoles: [],
  status: 'active',
});

const rawItem = async (key: ItemKey) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const indexAttributes = (item: Record<string, unknown> | undefined) =>
  Object.keys(item ?? {}).filter((name) => /^gsi\d(pk|sk)$/.test(name));

let author: TestUser;
let fan: TestUser;
let space: number;

beforeAll(async () => {
  [author, fan] = await Promise.all([createTestUser(), createTestUser()]);
  space = await createSpace({
    members: [
      [author, 'member'],
      [fan, 'member'],
    ],
  });
});

describe('likes and comments', () => {
  it('like and unlike are one transaction each, and never write the feed’s listing entry', async () => {
    const feed = await postFeed(author, { space_id: space });
    const listingBefore = await rawItem(postListingKey(feed.id));
    expect(indexAttributes(listingBefore).length).toBeGreaterThan(0);
    // The counters live on the post item, which carries no index keys: a like rewrites no list's entry.
    expect(indexAttributes(await rawItem(postKey(feed.id)))).toEqual([]);

    // The like's own transactions (the `new_reaction` notification to the author is written apart).
    const reaction = postReactionKey(feed.id, fan.id);
    const toggle = async () =>
      (await transactionsOf(() => reactToFeed(callerOf(fan), feed.id, { react_type: 'like' }))).filter(
        (transaction) => transaction.keys.some((key) => key.pk === reaction.pk && key.sk === reaction.sk),
      );
    const like = await toggle();
    expect(like).toHaveLength(1);
    const unlike = await toggle();
    expect(unlike).toHaveLength(1);
    for (const transaction of [...like, ...unlike]) {
      expect(transaction.keys).toContainEqual(postKey(feed.id));
      expect(transaction.keys).not.toContainEqual(postListingKey(feed.id));
    }
    expect(await rawItem(postListingKey(feed.id))).toEqual(listingBefore);
    expect(await rawItem(postKey(feed.id))).toMatchObject({ reactions_count: 0 });
  });

  it('a like on a comment is one transaction too', async () => {
    const feed = await postFeed(author, { space_id: space });
    const { comment } = await createComment(callerOf(author), feed.id, { message: 'like me' });
    const reaction = commentReactionKey(comment.id, fan.id);
    const toggle = async () =>
      (
        await transactionsOf(() =>
          reactToFeed(callerOf(fan), feed.id, { react_type: 'like', comment_id: comment.id }),
        )
      ).filter((transaction) =>
        transaction.keys.some((key) => key.pk === reaction.pk && key.sk === reaction.sk),
      );
    expect(await toggle()).toHaveLength(1);
    expect(await toggle()).toHaveLength(1);
  });

  it('a comment moves the post’s count in one transaction without writing its listing entry', async () => {
    const feed = await postFeed(author, { space_id: space });
    const listingBefore = await rawItem(postListingKey(feed.id));
    const transactions = await transactionsOf(() =>
      createComment(callerOf(fan), feed.id, { message: 'a comment' }),
    );
    const withPost = transactions.filter((transaction) =>
      transaction.keys.some((key) => key.pk === postKey(feed.id).pk),
    );
    expect(withPost).toHaveLength(1);
    expect(withPost[0]?.keys).toContainEqual(postKey(feed.id));
    expect(withPost[0]?.keys).not.toContainEqual(postListingKey(feed.id));
    expect(await rawItem(postListingKey(feed.id))).toEqual(listingBefore);
    expect(await rawItem(postKey(feed.id))).toMatchObject({ comments_count: 1 });
  });
});

describe('the timeline', () => {
  it('keeps its sharded totals (and the space’s) exact under concurrent posts and deletes', async () => {
    const member = await createTestUser();
    const hidden = await createSpace({ privacy: 'private', members: [[member, 'member']] });
    const feeds = await Promise.all(Array.from({ length: 24 }, () => postFeed(member, { space_id: hidden })));
    const counter = `members:${hidden}`;
    const [totals] = await readShardedTotals([feedStats()], { consistent: true });
    expect(totals?.[counter]).toBe(24);
    // The space's own posts_count is sharded the same way.
    expect(await findSpacePostCount(hidden)).toBe(24);
    // The posts landed on more than one shard.
    const shardsHolding = await Promise.all(shardKeys(feedStats()).map((key) => rawItem(key)));
    expect(shardsHolding.filter((item) => (item?.[counter] ?? 0) > 0).length).toBeGreaterThan(1);
    // Every replica of the shards holds the same counts (a read sums any one of them).
    for (let replica = 1; replica < feedStats().replicas; replica++) {
      const copies = await Promise.all(shardKeys(feedStats(), replica).map((key) => rawItem(key)));
      expect(copies.map((item) => item?.[counter] ?? 0)).toEqual(
        shardsHolding.map((item) => item?.[counter] ?? 0),
      );
    }

    await Promise.all(feeds.slice(0, 10).map((feed) => api('DELETE', `/feeds/${feed.id}`, { as: member })));
    const [after] = await readShardedTotals([feedStats()], { consistent: true });
    expect(after?.[counter]).toBe(14);
    expect(await findSpacePostCount(hidden)).toBe(14);
  });

  it('lists every feed of the merged shards once, newest first, page after page', async () => {
    const member = await createTestUser();
    const hidden = await createSpace({ privacy: 'secret', members: [[member, 'member']] });
    const mine = new Set<number>();
    for (let n = 0; n < 9; n++) mine.add((await postFeed(member, { space_id: hidden })).id);
    // Other test files post and delete public feeds meanwhile, and GET /feeds pages by offset: a feed posted between
    // two page reads shifts the later pages by one. Three pages read while the timeline's total stayed the same
    // (each page answers it) saw no such shift; they must list each feed once, newest first.
    const readPages = async () => {
      const pages = [];
      for (let page = 1; page <= 3; page++)
        pages.push(
          (
            await api<{ feeds: { data: Array<{ id: number; created_at: string }>; total: number } }>(
              'GET',
              '/feeds',
              { as: member, query: { page, per_page: 5 } },
            )
          ).body.feeds,
        );
      return pages;
    };
    let pages = await readPages();
    for (let attempt = 1; attempt < 10 && new Set(pages.map((page) => page.total)).size > 1; attempt++)
      pages = await readPages();
    expect(new Set(pages.map((page) => page.total)).size).toBe(1);
    const seen = pages.flatMap((page) => page.data.map((feed) => feed.id));
    const order = pages.flatMap((page) => page.data.map((feed) => feed.created_at));
    expect(seen.length).toBeGreaterThanOrEqual(mine.size);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...order].sort().reverse()).toEqual(order);
    const space = await api<{ feeds: { data: Array<{ id: number }>; total: number } }>('GET', '/feeds', {
      as: member,
      query: { space_id: hidden, per_page: 20 },
    });
    expect(space.body.feeds.total).toBe(9);
    expect(new Set(space.body.feeds.data.map((feed) => feed.id))).toEqual(mine);
  });

  it('answers a page past the end empty, with the total', async () => {
    const member = await createTestUser();
    await postFeed(member, {});
    const past = await api<{ feeds: { data: unknown[]; total: number; current_page: number } }>(
      'GET',
      '/feeds',
      {
        as: member,
        query: { page: 4000, per_page: 20 },
      },
    );
    expect(past.status).toBe(200);
    expect(past.body.feeds).toMatchObject({ current_page: 4000, data: [] });
    expect(past.body.feeds.total).toBeGreaterThan(0);
  });

  it('answers each item with the caller’s like (looked up for the liked posts only)', async () => {
    const [author, fan] = await Promise.all([createTestUser(), createTestUser()]);
    const hidden = await createSpace({
      privacy: 'private',
      members: [
        [author, 'admin'],
        [fan, 'member'],
      ],
    });
    const liked = await postFeed(author, { space_id: hidden });
    const plain = await postFeed(author, { space_id: hidden });
    expect(
      (await api('POST', `/feeds/${liked.id}/react`, { as: fan, body: { react_type: 'like' } })).status,
    ).toBe(200);
    const timeline = async (as: TestUser) =>
      (
        await api<{ feeds: { data: Array<{ id: number; liked: boolean; reactions_count: number }> } }>(
          'GET',
          '/feeds',
          { as, query: { per_page: 50 } },
        )
      ).body.feeds.data;
    const seenByFan = await timeline(fan);
    expect(seenByFan.find((feed) => feed.id === liked.id)).toMatchObject({ liked: true, reactions_count: 1 });
    expect(seenByFan.find((feed) => feed.id === plain.id)).toMatchObject({
      liked: false,
      reactions_count: 0,
    });
    // The author's own posts are read consistently; the like is the fan's, not the author's.
    const seenByAuthor = await timeline(author);
    expect(seenByAuthor.find((feed) => feed.id === liked.id)).toMatchObject({
      liked: false,
      reactions_count: 1,
    });
  });
});

describe('the global feed', () => {
  it('has no space list: a published global feed is listed by author and on the timeline, never on GSI2', async () => {
    const feed = await postFeed(author, {});
    const listing = await rawItem(postListingKey(feed.id));
    // No partition without a space id in its key (once `SPACE#0#POSTS`) takes every global post.
    expect(indexAttributes(listing).sort()).toEqual(['gsi1pk', 'gsi1sk', 'gsi3pk', 'gsi3sk']);
    const inSpace = await postFeed(author, { space_id: space });
    expect(await rawItem(postListingKey(inSpace.id))).toMatchObject({ gsi2pk: `SPACE#${space}#POSTS` });
  });
});
