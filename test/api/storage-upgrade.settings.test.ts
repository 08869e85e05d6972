import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { counterUpdate } from '../../shared/db/counters.ts';
import { newId } from '../../shared/db/ids.ts';
import { quizSubmissionListCopyKey } from '../../shared/db/keys/courses.ts';
import { authorPosts, feedStats, feedStatusStats, postListingKey } from '../../shared/db/keys/feeds.ts';
import { spacePostCounts } from '../../shared/db/keys/spaces.ts';
import { topicKey, topicPostCounts, topicReadCopies } from '../../shared/db/keys/topics.ts';
import { itemKeyId } from '../../shared/db/partition.ts';
import { indexEntry, indexPartition } from '../../shared/db/partition.ts';
import { batchGetRawItems } from '../../shared/db/reads.ts';
import { replicaKeys } from '../../shared/db/replicated-item.ts';
import { shardKeys } from '../../shared/db/sharded-counters.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import { timeSort } from '../../shared/db/keys/sort.ts';
import { feedAggregates } from '../../shared/domain/feeds/index.ts';
import { findTopicsByIds } from '../../shared/domain/topics/index.ts';
import { withPostCounts } from '../../shared/domain/topics/topic-repository.ts';
import {
  type PostItem,
  storedPost,
  storedPostListing,
  storedPostTopicLink,
} from '../../shared/domain/feeds/post-item.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';
import { allFeeds, createSpace, createTopics, postFeed } from '../support/feeds.ts';
import { adminList, importQuizCourse, type QuizCourse, submit } from '../support/quiz-course.ts';
import { searchEntriesOf, writeOldSearchEntries } from '../support/user-search-entries.ts';

/**
 * `storage:upgrade` (README, "Upgrading a stage's storage") on feeds written as a stage before the listing entries
 * and spread counters had them: post items carrying their own index keys (author, `SPACE#<s|0>#POSTS`, the single
 * `FEEDS` timeline partition), no listing entry, and counted only on the former `FEEDS`/`STATS` and `FEEDS#S<n>`
 * items; the current timeline, status and space shards lost (as on a stage that never had them); a topic's former
 * `posts_count` shards left behind (`TOPIC#<id>#S<n>` / `POSTCOUNT`, no longer written or read); and quiz
 * submissions without the list copies that list them for `status=all`; and user search entries that do not carry
 * their user; and the topic without its read copies. After the command every total the API answers is exact, the
 * topic's shards are gone (its count is unchanged) and its copies hold it, an old feed deletes, every submission is
 * listed, every search entry carries its user, and a second run writes nothing. Runs in the
 * `api-settings` project (alone): the timeline and status totals are site-wide.
 */
let author: TestUser;
let moderator: TestUser;
let privateSpace: number;
let topic: number;
const old: Record<'global' | 'private' | 'draft', PostItem> = {} as never;
/** A draft whose listing entry was written before the status lists: no status list key. */
let unlistedDraft: PostItem;
let quiz: QuizCourse;
/** Submissions (a pass, then a fail) whose list copies are gone, as on a stage before them. */
let oldSubmissions: number[];

/** A feed as a stage before listing entries wrote it, with the author and topic counters it kept then. */
async function writeOldFeed(post: PostItem): Promise<void> {
  const sort = timeSort(post.created_at, post.id);
  const listed = post.status === 'published';
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...storedPost(post),
        ...indexEntry(authorPosts(post.user_id), sort),
        // The former space and timeline partitions (no key builder names them any more).
        ...(listed ? indexEntry(indexPartition('GSI2', `SPACE#${post.space_id ?? 0}#POSTS`), sort) : {}),
        ...(listed ? indexEntry(indexPartition('GSI3', 'FEEDS'), sort) : {}),
      },
    }),
  );
  for (const topicId of post.topic_ids)
    await db().send(new PutCommand({ TableName: tableName(), Item: storedPostTopicLink(post, topicId) }));
  await keepCounters(post);
}

/** The counters whose layout did not change (the author's, the topic feed totals), as the old stage kept them. */
async function keepCounters(post: PostItem): Promise<void> {
  const kept = feedAggregates(post).filter((a) => ['user', 'points', 'topic'].includes(a.kind));
  await transactWrite(kept.map((a) => counterUpdate(a.key, a.deltas, { setOnCreate: a.identity })));
}

const feedOf = (id: number, fields: Partial<PostItem>): PostItem => ({
  id,
  user_id: author.id,
  space_id: null,
  space_visibility: 'public',
  title: `Old ${id}`,
  slug: `old-${id}`,
  message: 'Written by an older stage',
  message_rendered: '<p>Written by an older stage</p>',
  type: 'text',
  status: 'published',
  topic_ids: [],
  comments_count: 0,
  reactions_count: 0,
  media: [],
  created_at: new Date(Date.now() - 60_000).toISOString(),
  updated_at: new Date(Date.now() - 60_000).toISOString(),
  ...fields,
});

/** Two of the topic's four former shards (the upgrade must find them whatever their count). */
const leftoverShards = () => shardKeys(topicPostCounts(topic)).slice(0, 2);
const presentShards = async () =>
  (await batchGetRawItems(shardKeys(topicPostCounts(topic)), true)).map((item) => itemKeyId(item));

async function forgetCurrentCounters(): Promise<void> {
  const keys = [
    ...Array.from({ length: feedStats().replicas }, (_, r) => shardKeys(feedStats(), r)).flat(),
    ...shardKeys(feedStatusStats()),
    ...shardKeys(spacePostCounts(privateSpace)),
  ];
  for (const key of keys) await db().send(new DeleteCommand({ TableName: tableName(), Key: key }));
  // The topic's former posts_count shards as the feed writes of an older stage left them (one of them 0).
  for (const [shard, key] of leftoverShards().entries())
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, entity: 'topic_post_count', topic_id: topic, posts_count: shard === 0 ? 1 : 0 },
      }),
    );
  // The former layouts' totals, which the current code no longer reads.
  for (const pk of ['FEEDS', 'FEEDS#S3'])
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'STATS', public: 7 } }));
}

beforeAll(async () => {
  [author, moderator] = await Promise.all([createTestUser(), createTestUser({ communityRole: 'moderator' })]);
  privateSpace = await createSpace({ privacy: 'private', members: [[author, 'member']] });
  [topic] = (await createTopics(1)) as [number];
  // A feed of the current layout beside the old ones: the recount keeps it.
  await postFeed(author, { space_id: privateSpace, title: 'current' });
  old.global = feedOf(newId(), {});
  old.private = feedOf(newId(), {
    space_id: privateSpace,
    space_visibility: 'members',
    topic_ids: [topic],
    topic_signature: String(topic),
  });
  old.draft = feedOf(newId(), { status: 'draft' });
  for (const post of Object.values(old)) await writeOldFeed(post);
  unlistedDraft = feedOf(newId(), { status: 'draft' });
  const {
    gsi3pk: _pk,
    gsi3sk: _sk,
    ...listing
  } = storedPostListing(unlistedDraft) as Record<string, unknown>;
  for (const item of [storedPost(unlistedDraft) as Record<string, unknown>, listing])
    await db().send(new PutCommand({ TableName: tableName(), Item: item }));
  await keepCounters(unlistedDraft);
  await forgetCurrentCounters();

  quiz = await importQuizCourse();
  oldSubmissions = [];
  for (const [student, choice] of [
    [quiz.student, 'four'],
    [quiz.student2, 'five'],
  ] as const) {
    const submitted = await submit(student, quiz.courseId, quiz.lessons.last, {
      answers: { q_choice: choice },
    });
    expect(submitted.status, submitted.text).toBe(201);
    oldSubmissions.push(submitted.body.quiz_result.id);
  }
  for (const id of oldSubmissions)
    for (const scope of ['course', 'lesson'] as const)
      await db().send(
        new DeleteCommand({ TableName: tableName(), Key: quizSubmissionListCopyKey(id, scope) }),
      );
  await writeOldSearchEntries(author.id);
  await forgetTopicCopies();
}, 60_000);

/** The topic's read copies lost, as on a stage before them (its reads by id then read the topic item). */
async function forgetTopicCopies(): Promise<void> {
  for (const key of replicaKeys(topicReadCopies(topic)))
    await db().send(new DeleteCommand({ TableName: tableName(), Key: key }));
}

/** The topic's read copies that hold what its item holds. */
async function currentTopicCopies(): Promise<number> {
  const found = await batchGetRawItems([topicKey(topic), ...replicaKeys(topicReadCopies(topic))], true);
  const item = found.find((raw) => raw.pk === topicKey(topic).pk);
  const copies = found.filter((raw) => raw.pk !== topicKey(topic).pk);
  return copies.filter((copy) => item && copy.title === item.title && copy.updated_at === item.updated_at)
    .length;
}

/** The ids of a course's quiz results (status=all, newest first), course-wide and for the lesson. */
async function quizResultIds(): Promise<{ course: number[]; lesson: number[]; total: number }> {
  const course = await adminList(quiz.courseAdmin, quiz.courseId);
  const lesson = await adminList(quiz.courseAdmin, quiz.courseId, { lesson_id: quiz.lessons.last });
  expect(course.status, course.text).toBe(200);
  const ids = (body: typeof course.body) => body.quiz_results.map((row: { id: number }) => row.id);
  return { course: ids(course.body), lesson: ids(lesson.body), total: course.body.pagination.total };
}

const upgrade = async (...args: string[]) =>
  cliJson(await cli('storage:upgrade', ...args)) as Record<string, Record<string, number> | boolean>;

/** A list's total and the feeds its pages hold, which must agree. */
async function listed(as: TestUser, query: Record<string, string | number> = {}) {
  const all = await allFeeds(as, query);
  return { total: all.total, ids: all.feeds.map((feed) => feed.id) };
}

describe('storage:upgrade', () => {
  it('a dry run reports what it would write and writes nothing', async () => {
    const report = await upgrade('--dry-run');
    expect(report).toMatchObject({ dry_run: true, up_to_date: false });
    expect((report.feed_listings as Record<string, number>).upgraded).toBeGreaterThanOrEqual(3);
    const listings = await batchGetRawItems([postListingKey(old.global.id)], true);
    expect(listings).toEqual([]);
    expect((report.quiz_list_copies as Record<string, number>).items_written).toBeGreaterThanOrEqual(4);
    // Before the upgrade the statistics count the submissions and the status=all list misses them.
    expect(await quizResultIds()).toEqual({ course: [], lesson: [], total: 2 });
    expect((report.user_search_entries as Record<string, number>).items_written).toBeGreaterThanOrEqual(3);
    for (const entry of await searchEntriesOf(author.id)) expect(entry).not.toHaveProperty('status');
    expect((report.topic_read_copies as Record<string, number>).items_written).toBeGreaterThanOrEqual(4);
    expect(await currentTopicCopies()).toBe(0);
    expect((report.topic_post_counts as Record<string, number>).items_written).toBeGreaterThanOrEqual(2);
    expect(await presentShards()).toHaveLength(2);
  }, 300_000);

  it('upgrades the old feeds: listing entries, exact totals, and old feeds delete', async () => {
    const report = await upgrade();
    expect(report).toMatchObject({ dry_run: false, up_to_date: false });
    expect((report.feed_listings as Record<string, number>).upgraded).toBeGreaterThanOrEqual(4);
    expect((report.quiz_list_copies as Record<string, number>).items_written).toBeGreaterThanOrEqual(4);
    expect((report.timeline_totals as Record<string, number>).items_written).toBeGreaterThan(0);
    expect((report.user_search_entries as Record<string, number>).items_written).toBeGreaterThanOrEqual(3);
    expect((report.topic_read_copies as Record<string, number>).items_written).toBeGreaterThanOrEqual(4);
    expect(await currentTopicCopies()).toBe(4);
    const entries = await searchEntriesOf(author.id);
    expect(entries).toHaveLength(3);
    for (const entry of entries)
      expect(entry).toMatchObject({
        user_id: author.id,
        username: author.username,
        status: 'active',
        avatar: '',
      });

    const timeline = await listed(author);
    expect(timeline.ids).toEqual(expect.arrayContaining([old.global.id, old.private.id]));
    expect(timeline.total).toBe(timeline.ids.length);
    const space = await listed(author, { space_id: privateSpace });
    expect(space).toEqual({ total: 2, ids: [expect.any(Number), old.private.id] });
    const drafts = await listed(moderator, { status: 'draft' });
    expect(drafts.ids).toEqual(expect.arrayContaining([old.draft.id, unlistedDraft.id]));
    expect(drafts.total).toBe(drafts.ids.length);
    // The topic's leftover shards are removed; its posts_count (its feed totals item) still counts the old feed.
    expect((report.topic_post_counts as Record<string, number>).items_written).toBeGreaterThanOrEqual(2);
    expect(await presentShards()).toEqual([]);
    const [counted] = await withPostCounts(await findTopicsByIds([topic]));
    expect(counted?.posts_count).toBe(1);

    for (const post of [...Object.values(old), unlistedDraft]) {
      const deleted = await api('DELETE', `/feeds/${post.id}`, { as: author });
      expect(deleted.status, deleted.text).toBe(200);
    }
    const after = await listed(author);
    expect(after.ids).not.toContain(old.global.id);
    expect(after.total).toBe(timeline.total - 2);
    expect(after.total).toBe(after.ids.length);
    expect((await listed(author, { space_id: privateSpace })).total).toBe(1);
    expect((await listed(moderator, { status: 'draft' })).total).toBe(drafts.total - 2);
    const [uncounted] = await withPostCounts(await findTopicsByIds([topic]));
    expect(uncounted?.posts_count).toBe(0);
  }, 400_000);

  it('lists quiz submissions of an older stage in status=all, in the order asked (the run above)', async () => {
    const newestFirst = [...oldSubmissions].reverse();
    expect(await quizResultIds()).toEqual({ course: newestFirst, lesson: newestFirst, total: 2 });
    const ascending = await adminList(quiz.courseAdmin, quiz.courseId, { orderby: 'score', order: 'asc' });
    expect(ascending.body.quiz_results.map((row: { id: number }) => row.id)).toEqual(newestFirst);
  }, 300_000);

  it('a second run has nothing to do and says so', async () => {
    const report = await upgrade();
    expect(report).toMatchObject({ up_to_date: true });
    for (const kind of [
      'timeline_totals',
      'status_totals',
      'space_post_counts',
      'topic_post_counts',
      'quiz_list_copies',
      'user_search_entries',
      'topic_read_copies',
    ])
      expect((report[kind] as Record<string, number>).items_written).toBe(0);
    expect((report.feed_listings as Record<string, number>).upgraded).toBe(0);
  }, 300_000);
});
