import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSetting } from '../../shared/domain/settings/index.ts';
import { DEFAULT_TOPICS_CONFIG, type TopicsConfig } from '../../shared/domain/topics/index.ts';
import { api, type TestUser } from '../support/api.ts';
import {
  allFeeds,
  createSpace,
  createTopics,
  expectError,
  type Feed,
  feedOf,
  postFeed,
  feedAudience,
} from '../support/feeds.ts';

/**
 * Rules that read site-wide settings: the topic configuration on POST /feeds and PUT /feeds/{id}, and
 * `disable_global_posts`. This file runs in the `api-settings` project, after every other API file and alone, so
 * changing a setting cannot disturb another file; it also checks the unfiltered timeline's totals, which count
 * every feed of the site and are exact only while nothing else writes.
 */

let author: TestUser;
let member: TestUser;
let outsider: TestUser;
let moderator: TestUser;
let space: number;
let requiringSpace: number;
let privateSpace: number;
let active: [number, number, number, number];
let inactive: number;

async function setTopicsConfig(config: Partial<TopicsConfig>) {
  for (const [key, value] of Object.entries({ ...DEFAULT_TOPICS_CONFIG, ...config })) {
    await putSetting('topics_config', key, value);
  }
}

beforeAll(async () => {
  let members: Awaited<ReturnType<typeof feedAudience>>['members'];
  ({ author, member, outsider, moderator, members } = await feedAudience());
  [space, requiringSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ members, settings: { topic_required: 'yes' } }),
    createSpace({ privacy: 'private', members }),
  ]);
  active = (await createTopics(4)) as [number, number, number, number];
  [inactive] = (await createTopics(1, { status: 'inactive' })) as [number];
  await setTopicsConfig({});
  await putSetting('general', 'disable_global_posts', 'no');
});

afterAll(async () => {
  await setTopicsConfig({});
  await putSetting('general', 'disable_global_posts', 'no');
});

/** POST and PUT with these topics both answer 400 naming `topics`, and nothing changes. */
async function expectTopicsRefused(topics: number[], spaceId = space) {
  const created = await api('POST', '/feeds', {
    as: author,
    body: { message: 'x', space_id: spaceId, topics },
  });
  expect(Object.keys(expectError(created, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
  const feed = await postFeed(author, { space_id: spaceId, topics: [active[0]] });
  const updated = await api('PUT', `/feeds/${feed.id}`, { as: author, body: { topics } });
  expect(Object.keys(expectError(updated, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
  expect((await feedOf(author, feed.id))?.topics.map((topic) => topic.id)).toEqual([active[0]]);
}

describe('topic rules on POST /feeds and PUT /feeds/{id}', () => {
  it('refuses unknown and inactive topic ids with the defaults', async () => {
    await expectTopicsRefused([999_999_999]);
    await expectTopicsRefused([inactive]);
    await expectTopicsRefused([active[0], 999_999_999]);
  });

  it('refuses more than max_topics_per_post (default 3)', async () => {
    await expectTopicsRefused([...active]);
    expect((await postFeed(author, { space_id: space, topics: active.slice(0, 3) })).topics).toHaveLength(3);
    await setTopicsConfig({ max_topics_per_post: 2 });
    await expectTopicsRefused(active.slice(0, 3));
    await setTopicsConfig({});
  });

  it('refuses several topics when allow_multiple is false', async () => {
    await setTopicsConfig({ allow_multiple: false });
    await expectTopicsRefused(active.slice(0, 2));
    expect((await postFeed(author, { space_id: space, topics: [active[1]] })).topics).toHaveLength(1);
    await setTopicsConfig({});
  });

  it('refuses any topic while topics are disabled', async () => {
    await setTopicsConfig({ enabled: false });
    const created = await api('POST', '/feeds', {
      as: author,
      body: { message: 'x', space_id: space, topics: [active[0]] },
    });
    expect(Object.keys(expectError(created, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
    const feed = await postFeed(author, { space_id: space });
    const updated = await api('PUT', `/feeds/${feed.id}`, { as: author, body: { topics: [active[0]] } });
    expect(Object.keys(expectError(updated, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
    await setTopicsConfig({});
  });

  it('requires a topic when required_for_posts is on, or when the space requires one', async () => {
    await expectTopicsRefused([], requiringSpace);
    await setTopicsConfig({ required_for_posts: true });
    await expectTopicsRefused([]);
    const refused = await api('POST', '/feeds', {
      as: author,
      body: { message: 'no topics', space_id: space },
    });
    expect(Object.keys(expectError(refused, 400, 'rest_invalid_param') as object)).toEqual(['topics']);
    expect((await postFeed(author, { space_id: space, topics: [active[2]] })).topics).toHaveLength(1);
    await setTopicsConfig({});
  });
});

describe('disable_global_posts', () => {
  it('requires space_id while on (400 rest_missing_callback_param); the global feed works while off', async () => {
    const global = await postFeed(author, { title: 'global' });
    expect(global.space_id).toBeNull();
    expect((await postFeed(outsider, { space_id: null })).space_id).toBeNull();
    await putSetting('general', 'disable_global_posts', 'yes');
    const params = expectError(
      await api('POST', '/feeds', { as: author, body: { message: 'x' } }),
      400,
      'rest_missing_callback_param',
    );
    expect(params).toEqual(['space_id']);
    expect((await postFeed(author, { space_id: space })).space_id).toBe(space);
    await putSetting('general', 'disable_global_posts', 'no');
  });
});

describe('GET /feeds without filters: totals count exactly what each caller can page through', () => {
  let privateFeed: Feed;
  beforeAll(async () => {
    privateFeed = await postFeed(author, { space_id: privateSpace });
    await postFeed(author, { space_id: space });
    await postFeed(author, { space_id: space, status: 'draft' });
  });

  it.each([
    ['a non-member', () => outsider, false],
    ['a member', () => member, true],
    ['a community moderator', () => moderator, true],
  ] as const)('for %s', async (_name, who, seesPrivate) => {
    const { feeds, total } = await allFeeds(who());
    expect(feeds).toHaveLength(total);
    expect(new Set(feeds.map((feed) => feed.id)).size).toBe(total);
    expect(feeds.every((feed) => feed.status === 'published')).toBe(true);
    expect(feeds.some((feed) => feed.id === privateFeed.id)).toBe(seesPrivate);
  });

  it('a member sees exactly the public feeds plus their spaces’ feeds', async () => {
    const [outsiderView, memberView, moderatorView] = await Promise.all([
      allFeeds(outsider),
      allFeeds(member),
      allFeeds(moderator),
    ]);
    expect(memberView.total).toBeGreaterThan(outsiderView.total);
    expect(moderatorView.total).toBeGreaterThanOrEqual(memberView.total);
    const outsiderIds = new Set(outsiderView.feeds.map((feed) => feed.id));
    expect(
      memberView.feeds.filter((feed) => !outsiderIds.has(feed.id)).every((feed) => feed.space_id !== null),
    ).toBe(true);
  });
});
