import { beforeAll, describe, expect, it } from 'vitest';
import { topicKey, topicReadCopies } from '../../shared/db/keys/topics.ts';
import { replicaAbsentActions } from '../../shared/db/replicated-item.ts';
import { deleteAction, transactWrite } from '../../shared/db/transact.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { findTopicsByIds } from '../../shared/domain/topics/index.ts';
import { withPostCounts } from '../../shared/domain/topics/topic-repository.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  allFeeds,
  createSpace,
  createTopics,
  expectError,
  getFeed,
  listFeeds,
  postFeed,
} from '../support/feeds.ts';

/**
 * Topics on feeds: `GET /feeds?topics=` (one or several topics, with `space_id`, visibility-aware exact totals), the
 * topics' `posts_count` after creates, topic changes, status changes and deletes, and a deleted topic never showing.
 * The topic rules themselves (configuration) are in feeds-topic-rules.settings.test.ts.
 */

let author: TestUser;
let member: TestUser;
let outsider: TestUser;
let publicSpace: number;
let privateSpace: number;

const postsCount = async (ids: number[]) => {
  const topics = await withPostCounts(await findTopicsByIds(ids));
  return ids.map((id) => topics.find((topic) => topic.id === id)?.posts_count);
};

beforeAll(async () => {
  [author, member, outsider] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
  const members = [
    [author, 'member'],
    [member, 'member'],
  ] as const;
  [publicSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
  ]);
});

describe('GET /feeds?topics=', () => {
  let a: number;
  let b: number;
  let c: number;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    [a, b, c] = (await createTopics(3)) as [number, number, number];
    // Newest last: a, ab, b, private a, bc, draft a.
    ids.a = (await postFeed(author, { space_id: publicSpace, topics: [a] })).id;
    ids.ab = (await postFeed(author, { space_id: publicSpace, topics: [a, b] })).id;
    ids.b = (await postFeed(author, { space_id: publicSpace, topics: [b] })).id;
    ids.privateA = (await postFeed(author, { space_id: privateSpace, topics: [a] })).id;
    ids.bc = (await postFeed(author, { space_id: publicSpace, topics: [b, c] })).id;
    ids.draftA = (await postFeed(author, { space_id: publicSpace, topics: [a], status: 'draft' })).id;
  });

  it('lists the published feeds carrying one topic, newest first, with a visibility-aware exact total', async () => {
    const outsiderView = await allFeeds(outsider, { topics: String(a) });
    expect(outsiderView.feeds.map((feed) => feed.id)).toEqual([ids.ab, ids.a]);
    expect(outsiderView.total).toBe(2);
    const memberView = await allFeeds(member, { topics: String(a) });
    expect(memberView.feeds.map((feed) => feed.id)).toEqual([ids.privateA, ids.ab, ids.a]);
    expect(memberView.total).toBe(3);
  });

  it('lists feeds carrying any of several topics once each, total counting each feed once', async () => {
    const view = await allFeeds(outsider, { topics: `${a},${b}` });
    expect(view.feeds.map((feed) => feed.id)).toEqual([ids.bc, ids.b, ids.ab, ids.a]);
    expect(view.total).toBe(4);
    const all = await allFeeds(member, { topics: `${c},${b},${a}` });
    expect(all.total).toBe(5);
    expect(all.feeds).toHaveLength(5);
    // Pages of the merged list.
    const second = (await listFeeds(member, { topics: `${a},${b}`, per_page: 2, page: 2 })).body.feeds;
    expect(second).toMatchObject({ total: 5, current_page: 2, per_page: 2 });
    expect(second.data.map((feed) => feed.id)).toEqual([ids.b, ids.ab]);
    const past = (await listFeeds(member, { topics: `${a},${b}`, per_page: 2, page: 4 })).body.feeds;
    expect(past).toMatchObject({ total: 5, data: [] });
  });

  it('combines with space_id', async () => {
    const view = await allFeeds(member, { topics: String(a), space_id: privateSpace });
    expect(view.feeds.map((feed) => feed.id)).toEqual([ids.privateA]);
    expect(view.total).toBe(1);
    expectError(await listFeeds(outsider, { topics: String(a), space_id: privateSpace }), 404, 'not_found');
  });

  it('matches nothing for unknown topic ids', async () => {
    expect((await listFeeds(member, { topics: '999999999' })).body.feeds).toMatchObject({
      total: 0,
      data: [],
    });
    const view = await allFeeds(outsider, { topics: `999999999,${c}` });
    expect(view.feeds.map((feed) => feed.id)).toEqual([ids.bc]);
    expect(view.total).toBe(1);
  });

  it('refuses more than 20 topic ids', async () => {
    const many = Array.from({ length: 21 }, (_, index) => index + 1).join(',');
    const params = expectError(await listFeeds(member, { topics: many }), 400, 'rest_invalid_param');
    expect(Object.keys(params as object)).toEqual(['topics']);
  });
});

describe('posts_count of topics', () => {
  it('counts published feeds exactly through creates, topic changes, status changes and deletes', async () => {
    const [x, y, z] = (await createTopics(3)) as [number, number, number];
    const first = await postFeed(author, { space_id: publicSpace, topics: [x, y] });
    const second = await postFeed(author, { space_id: privateSpace, topics: [x] });
    await postFeed(author, { space_id: publicSpace, topics: [x, z], status: 'draft' });
    expect(await postsCount([x, y, z])).toEqual([2, 1, 0]);

    // Replace y by z on the first feed.
    const changed = await api('PUT', `/feeds/${first.id}`, { as: author, body: { topics: [x, z] } });
    expect(changed.status, changed.text).toBe(200);
    expect(await postsCount([x, y, z])).toEqual([2, 0, 1]);

    // Unpublish and publish again.
    await api('PUT', `/feeds/${second.id}`, { as: author, body: { status: 'draft' } });
    expect(await postsCount([x, y, z])).toEqual([1, 0, 1]);
    expect((await allFeeds(member, { topics: String(x) })).total).toBe(1);
    await api('PUT', `/feeds/${second.id}`, { as: author, body: { status: 'published', topics: [x, y] } });
    expect(await postsCount([x, y, z])).toEqual([2, 1, 1]);
    expect((await allFeeds(member, { topics: `${x},${y}` })).total).toBe(2);

    // Remove every topic, then delete.
    await api('PUT', `/feeds/${first.id}`, { as: author, body: { topics: [] } });
    expect(await postsCount([x, y, z])).toEqual([1, 1, 0]);
    expect((await getFeed(author, first.id)).body.feed.topics).toEqual([]);
    expect((await api('DELETE', `/feeds/${second.id}`, { as: author })).status).toBe(200);
    expect(await postsCount([x, y, z])).toEqual([0, 0, 0]);
    expect((await allFeeds(member, { topics: `${x},${y},${z}` })).total).toBe(0);
  });

  it('runs concurrent creates on one topic without losing a count', async () => {
    const [t] = (await createTopics(1)) as [number];
    await Promise.all(
      Array.from({ length: 10 }, () => postFeed(author, { space_id: publicSpace, topics: [t] })),
    );
    expect(await postsCount([t])).toEqual([10]);
    expect((await allFeeds(outsider, { topics: String(t) })).total).toBe(10);
  });
});

describe('topics that are inactive or deleted', () => {
  it('hides an inactive topic on the feed', async () => {
    const slug = `inactive-${Date.now().toString(36)}`;
    const imported = await runImport({
      topics: [
        { ref: 'off', title: `Off ${slug}`, slug, status: 'inactive' },
        { ref: 'on', title: `On ${slug}`, slug: `${slug}-on` },
      ],
      feeds: [{ ref: 'f', user: author.username, message: 'imported', topics: ['off', 'on'] }],
    });
    const feed = (await getFeed(member, imported.feeds.f as number)).body.feed;
    expect(feed.topics.map((topic) => topic.id)).toEqual([imported.topics.on]);
  });

  it('never shows a deleted topic, and the feed can still be edited and deleted', async () => {
    const [kept, gone] = (await createTopics(2)) as [number, number];
    const feed = await postFeed(author, { space_id: publicSpace, topics: [kept, gone] });
    // The first step of a topic delete: the topic item goes (its read copies read as absent) before its links are
    // detached.
    await transactWrite([deleteAction(topicKey(gone)), ...replicaAbsentActions(topicReadCopies(gone))]);

    expect((await getFeed(member, feed.id)).body.feed.topics.map((topic) => topic.id)).toEqual([kept]);
    expect((await listFeeds(member, { topics: String(gone) })).body.feeds).toMatchObject({
      total: 0,
      data: [],
    });
    const view = await allFeeds(member, { topics: `${kept},${gone}` });
    expect(view.feeds.map((item) => item.id)).toEqual([feed.id]);
    expect(view.total).toBe(1);

    const edited = await api('PUT', `/feeds/${feed.id}`, { as: author, body: { status: 'draft' } });
    expect(edited.status, edited.text).toBe(200);
    expect(await postsCount([kept])).toEqual([0]);
    const refused = await api('PUT', `/feeds/${feed.id}`, { as: author, body: { topics: [kept, gone] } });
    expect(Object.keys(expectError(refused, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
    expect((await api('DELETE', `/feeds/${feed.id}`, { as: author })).status).toBe(200);
    expect(await postsCount([kept])).toEqual([0]);
  });
});
