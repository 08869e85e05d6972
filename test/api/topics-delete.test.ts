import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { postKey, postTopicKey, topicPosts, topicUnlistedPosts } from '../../shared/db/keys/feeds.ts';
import { topicSlugGuardKey } from '../../shared/db/keys/topics.ts';
import { getItem, queryItems } from '../../shared/db/reads.ts';
import { PostItemSchema } from '../../shared/domain/feeds/post-item.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  createdTopic,
  createTopic,
  deleteTopic,
  expectError,
  findTopic,
  type ImportedFeed,
  importTopicsWithFeeds,
  listAll,
  listTopics,
  uniqueToken,
  updateTopic,
} from '../support/topics.ts';

/**
 * DELETE /admin/topics/{topic_id} through the local gateway, on feeds created by the operator import: the topic
 * is gone from every read at the answer, and the `topics` worker (run by the local stack's poller) then detaches
 * it from every feed (no link, no `topic_ids` names it); the other topics keep exact `posts_count`s, and its
 * children move up to its parent. That the answer does not wait for the detaching (issue 21, item 19) is
 * test/integration/topic-detach-worker.test.ts.
 */

let admin: TestUser;
let member: TestUser;
let author: TestUser;
beforeAll(async () => {
  [admin, member, author] = await Promise.all([
    createTestUser({ communityRole: 'admin' }),
    createTestUser(),
    createTestUser(),
  ]);
});

const AnyItem = v.object({ pk: v.string(), sk: v.string() });

async function linksOf(topicId: number) {
  const [published, unlisted] = await Promise.all([
    queryItems(topicPosts(topicId), AnyItem),
    queryItems(topicUnlistedPosts(topicId), AnyItem),
  ]);
  return [...published, ...unlisted];
}

/** Polls until the `topics` worker has detached the topic from every feed (no link left in either list). */
async function detached(topicId: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await linksOf(topicId)).length > 0) {
    if (Date.now() > deadline) throw new Error(`topic ${topicId} still has links after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function topicIdsOf(postId: number): Promise<number[] | undefined> {
  return (await getItem(postKey(postId), PostItemSchema, { consistent: true }))?.topic_ids;
}

/** An import with one space, topics and feeds of every status carrying them. */
const importFeeds = (token: string, feeds: ImportedFeed[]) =>
  importTopicsWithFeeds(
    author,
    token,
    [
      { ref: 'doomed', title: `Doomed ${token}`, slug: `doomed-${token}` },
      { ref: 'kept', title: `Kept ${token}`, slug: `kept-${token}` },
    ],
    feeds,
  );

describe('who may delete', () => {
  it('anonymous → 401, a member → 403; the topic stays', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Safe ${token}` });
    expectError(await api('DELETE', `/admin/topics/${topic.id}`), 401, 'rest_not_logged_in');
    expectError(await deleteTopic(member, topic.id), 403, 'rest_forbidden');
    expectError(await deleteTopic(member, 987_654_321), 403, 'rest_forbidden');
    expect(await findTopic(admin, token, topic.id)).toEqual(topic);
  });

  it('an unknown id → 404 not_found; a non-integer id → 400', async () => {
    expectError(await deleteTopic(admin, 987_654_321), 404, 'not_found');
    expectError(await deleteTopic(admin, 'abc'), 400, 'rest_invalid_param');
  });
});

describe('a deleted topic', () => {
  let token: string;
  let ids: Awaited<ReturnType<typeof importFeeds>>;
  let doomed: number;
  let kept: number;
  beforeAll(async () => {
    token = uniqueToken();
    ids = await importFeeds(token, [
      { ref: 'published-one', topics: ['doomed'] },
      { ref: 'published-both', topics: ['doomed', 'kept'] },
      { ref: 'draft-both', topics: ['kept', 'doomed'], status: 'draft' },
      { ref: 'pending-one', topics: ['doomed'], status: 'pending' },
      { ref: 'published-kept', topics: ['kept'] },
      { ref: 'published-none', topics: [] },
    ]);
    doomed = ids.topics.doomed!;
    kept = ids.topics.kept!;
  });

  it('counts its published feeds before the delete', async () => {
    const topics = await listAll(admin, { search: token });
    expect(topics.map((topic) => [topic.id, topic.posts_count])).toEqual([
      [doomed, 2],
      [kept, 2],
    ]);
    expect(await linksOf(doomed)).toHaveLength(4);
  });

  it('answers a message, and is gone: 404 on update and on a second delete', async () => {
    const response = await deleteTopic(admin, doomed);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Topic has been deleted successfully.' });
    expect(await findTopic(admin, token, doomed)).toBeUndefined();
    expectError(await updateTopic(admin, doomed, { title: 'Back' }), 404, 'not_found');
    expectError(await deleteTopic(admin, doomed), 404, 'not_found');
  });

  it('is gone from every feed read at the answer: not shown on a feed, a filter by it matches nothing', async () => {
    const both = await api<{ feed: { topics: Array<{ id: number }> } }>(
      'GET',
      `/feeds/${ids.feeds['published-both']}`,
      { as: author },
    );
    expect(both.body.feed.topics.map((topic) => topic.id)).toEqual([kept]);
    const filtered = await api<{ feeds: { total: number; data: unknown[] } }>(
      'GET',
      `/feeds?topics=${doomed}`,
      {
        as: author,
      },
    );
    const unknown = await api<{ feeds: { total: number; data: unknown[] } }>(
      'GET',
      '/feeds?topics=999999999',
      {
        as: author,
      },
    );
    expect(filtered.status).toBe(unknown.status);
    expect(filtered.body.feeds).toMatchObject({ total: 0, data: [] });
  });

  it('is detached from every feed, published or not: no link and no topic_ids names it', async () => {
    await detached(doomed);
    expect(await linksOf(doomed)).toEqual([]);
    for (const ref of Object.keys(ids.feeds)) {
      const postId = ids.feeds[ref]!;
      expect(await getItem(postTopicKey(postId, doomed), AnyItem, { consistent: true }), ref).toBeUndefined();
      expect(await topicIdsOf(postId), ref).not.toContain(doomed);
    }
    expect(await topicIdsOf(ids.feeds['published-both']!)).toEqual([kept]);
    expect(await topicIdsOf(ids.feeds['draft-both']!)).toEqual([kept]);
    expect(await topicIdsOf(ids.feeds['published-one']!)).toEqual([]);
    expect(await topicIdsOf(ids.feeds['pending-one']!)).toEqual([]);
  });

  it('leaves the other topics, their links and exact posts_count alone', async () => {
    const [keptTopic] = await listAll(admin, { search: token });
    expect(keptTopic).toMatchObject({ id: kept, posts_count: 2 });
    expect(await linksOf(kept)).toHaveLength(3);
  });

  it('frees its slug', async () => {
    expect(
      await getItem(topicSlugGuardKey(`doomed-${token}`), AnyItem, { consistent: true }),
    ).toBeUndefined();
    const again = await createTopic(admin, { title: `Doomed again ${token}`, slug: `doomed-${token}` });
    expect(again.status).toBe(201);
  });
});

describe('a topic on many feeds', () => {
  it('is detached from all of them (several transactions), published and drafts alike', async () => {
    const token = uniqueToken();
    const feeds = Array.from({ length: 130 }, (_, i) => ({
      ref: `f${i}`,
      topics: i % 3 === 0 ? ['doomed', 'kept'] : ['doomed'],
      ...(i % 4 === 0 ? { status: 'draft' } : {}),
    }));
    const ids = await importFeeds(token, feeds);
    const doomed = ids.topics.doomed!;
    const published = feeds.filter((feed) => feed.status === undefined).length;
    expect((await findTopic(admin, token, doomed))?.posts_count).toBe(published);
    expect(await linksOf(doomed)).toHaveLength(130);

    expect((await deleteTopic(admin, doomed)).status).toBe(200);
    await detached(doomed);
    const remaining = await Promise.all(Object.values(ids.feeds).map(topicIdsOf));
    expect(remaining.filter((topicIds) => topicIds?.includes(doomed))).toEqual([]);
    const keptCount = feeds.filter(
      (feed) => feed.topics.includes('kept') && feed.status === undefined,
    ).length;
    expect((await findTopic(admin, token, ids.topics.kept!))?.posts_count).toBe(keptCount);
  });
});

describe('children of a deleted topic', () => {
  it('move up to its parent, with their subtrees and exact totals', async () => {
    const token = uniqueToken();
    const grand = await createdTopic(admin, { title: `Grand ${token}` });
    const middle = await createdTopic(admin, { title: `Middle ${token}`, parent_id: grand.id });
    const first = await createdTopic(admin, { title: `First ${token}`, parent_id: middle.id, serial: 1 });
    const second = await createdTopic(admin, {
      title: `Second ${token}`,
      parent_id: middle.id,
      status: 'inactive',
      serial: 2,
    });
    const leaf = await createdTopic(admin, { title: `Leaf ${token}`, parent_id: first.id });

    expect((await deleteTopic(admin, middle.id)).status).toBe(200);
    const underGrand = await listTopics(admin, { parent_id: grand.id });
    expect(underGrand.body.topics.map((topic) => topic.id)).toEqual([first.id, second.id]);
    expect(underGrand.body.pagination.total).toBe(2);
    expect((await listTopics(admin, { parent_id: grand.id, status: 'inactive' })).body.pagination.total).toBe(
      1,
    );
    const underMiddle = await listTopics(admin, { parent_id: middle.id });
    expect(underMiddle.body).toEqual({
      topics: [],
      pagination: { total: 0, per_page: 50, current_page: 1, total_pages: 1 },
    });
    expect((await listTopics(admin, { parent_id: first.id })).body.topics.map((topic) => topic.id)).toEqual([
      leaf.id,
    ]);
  });

  it('of a top-level topic become top-level', async () => {
    const token = uniqueToken();
    const top = await createdTopic(admin, { title: `Top ${token}` });
    const child = await createdTopic(admin, { title: `Child ${token}`, parent_id: top.id });
    expect((await deleteTopic(admin, top.id)).status).toBe(200);
    const topLevel = await listAll(admin, { parent_id: 0, search: token });
    expect(topLevel.map((topic) => [topic.id, topic.parent_id])).toEqual([[child.id, null]]);
    // The adopted child is an ordinary topic: it can be moved and deleted.
    expect((await updateTopic(admin, child.id, { title: `Adopted ${token}` })).status).toBe(200);
    expect((await deleteTopic(admin, child.id)).status).toBe(200);
    expect(await listAll(admin, { search: token })).toEqual([]);
  });
});
