import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { waitForNotificationCount, waitForNotifications } from '../support/notifications.ts';
import { createSpace, expectError, type Feed, feedOf, ISO, postFeed } from '../support/feeds.ts';

/**
 * GET|POST /feeds/{id}/comments: every field, replies, paginator B with its cursor, exact `comments_count` under
 * concurrent comments, visibility, bad input; and the notifications comments and mentions emit.
 */

type Comment = Record<string, unknown> & { id: number; parent_id: number | null; liked: boolean };
type Paginator = {
  current_page: number;
  data: Comment[];
  total: number;
  per_page: number;
  next_page_url: string | null;
  from: number | null;
  to: number | null;
  last_page: number;
};

let author: TestUser;
let commenter: TestUser;
let outsider: TestUser;
let publicSpace: number;
let privateSpace: number;

beforeAll(async () => {
  [author, commenter, outsider] = await Promise.all([
    createTestUser(),
    createTestUser({ displayName: 'The Commenter' }),
    createTestUser(),
  ]);
  const members = [
    [author, 'member'],
    [commenter, 'member'],
  ] as const;
  [publicSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
  ]);
});

const comment = (as: TestUser, feedId: number, body: unknown) =>
  api<{ message: string; comment: Comment }>('POST', `/feeds/${feedId}/comments`, { as, body });

const list = (as: TestUser, feedId: number, query: Record<string, string | number> = {}) =>
  api<{ comments: Paginator }>('GET', `/feeds/${feedId}/comments`, { as, query });

/**
 * The recipient's notifications of one type (the notifications API), once there are at least `atLeast` of them
 * (stored by the notify worker a moment after the request).
 */
const notificationsOf = (recipient: TestUser, type: string, atLeast = 0) =>
  waitForNotificationCount(recipient, atLeast, { type });

describe('POST /feeds/{id}/comments', () => {
  it('adds a comment (201) with every field, and counts it', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const response = await comment(commenter, feed.id, { message: 'Nice **post**' });
    expect(response.status, response.text).toBe(201);
    expect(response.body.message).toBe('Comment has been added.');
    const created = response.body.comment;
    expect(Object.keys(created).sort()).toEqual(
      [
        'id',
        'post_id',
        'parent_id',
        'message',
        'message_rendered',
        'reactions_count',
        'status',
        'created_at',
        'updated_at',
        'liked',
        'xprofile',
      ].sort(),
    );
    expect(created).toMatchObject({
      post_id: feed.id,
      parent_id: null,
      message: 'Nice **post**',
      message_rendered: '<p>Nice <strong>post</strong></p>',
      reactions_count: 0,
      status: 'published',
      liked: false,
      xprofile: {
        user_id: commenter.id,
        username: commenter.username,
        display_name: 'The Commenter',
        avatar: '',
      },
    });
    expect(created.created_at).toMatch(ISO);
    expect(created.updated_at).toMatch(ISO);
    expect((await feedOf(author, feed.id))?.comments_count).toBe(1);
  });

  it('adds replies through parent_id; a parent on another feed or no comment at all is 400, nothing written', async () => {
    const [feed, other] = await Promise.all([
      postFeed(author, { space_id: publicSpace }),
      postFeed(author, { space_id: publicSpace }),
    ]);
    const parent = (await comment(author, feed.id, { message: 'parent' })).body.comment;
    const elsewhere = (await comment(author, other.id, { message: 'elsewhere' })).body.comment;
    const reply = await comment(commenter, feed.id, { message: 'reply', parent_id: parent.id });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.comment.parent_id).toBe(parent.id);
    for (const parentId of [elsewhere.id, 999_999_999]) {
      const params = expectError(
        await comment(commenter, feed.id, { message: 'lost', parent_id: parentId }),
        400,
        'rest_invalid_param',
      );
      expect(Object.keys(params as object)).toEqual(['parent_id']);
    }
    expect((await feedOf(author, feed.id))?.comments_count).toBe(2);
  });

  it('refuses bad input (400) and hidden or unknown feeds (404)', async () => {
    const feed = await postFeed(author, { space_id: privateSpace });
    const cases: [unknown, string, string][] = [
      [{ message: 'c'.repeat(10_001) }, 'rest_invalid_param', 'message'],
      [{ message: 'x', colour: 'red' }, 'rest_invalid_param', 'colour'],
      [{ message: 'x', parent_id: 'one' }, 'rest_invalid_param', 'parent_id'],
      [{}, 'rest_missing_callback_param', 'message'],
    ];
    for (const [body, code, name] of cases) {
      const params = expectError(await comment(author, feed.id, body), 400, code);
      if (code === 'rest_invalid_param') expect(Object.keys(params as object)).toEqual([name]);
      else expect(params).toEqual([name]);
    }
    expect((await comment(author, feed.id, { message: 'c'.repeat(10_000) })).status).toBe(201);
    expectError(await comment(outsider, feed.id, { message: 'x' }), 404, 'not_found');
    expectError(await comment(author, 999_999_999, { message: 'x' }), 404, 'not_found');
    expect((await feedOf(author, feed.id))?.comments_count).toBe(1);
  });

  it('keeps comments_count exact under fifteen concurrent comments', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        comment(index % 2 ? commenter : author, feed.id, { message: `c${index}` }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(15).fill(201));
    expect((await feedOf(author, feed.id))?.comments_count).toBe(15);
    expect((await list(author, feed.id, { per_page: 100 })).body.comments.total).toBe(15);
  });
});

describe('GET /feeds/{id}/comments', () => {
  let feed: Feed;
  const ids: number[] = [];
  beforeAll(async () => {
    feed = await postFeed(author, { space_id: privateSpace });
    for (let i = 0; i < 5; i++)
      ids.push((await comment(i % 2 ? author : commenter, feed.id, { message: `m${i}` })).body.comment.id);
    ids.push((await comment(author, feed.id, { message: 'reply', parent_id: ids[0] })).body.comment.id);
  });

  it('answers paginator B, oldest first, total from comments_count', async () => {
    const response = await list(commenter, feed.id);
    expect(response.status, response.text).toBe(200);
    const page = response.body.comments;
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 6, from: 1, to: 6, last_page: 1 });
    expect(page.next_page_url).toBeNull();
    expect(page.data.map((item) => item.id)).toEqual(ids);
    expect(page.data[5]?.parent_id).toBe(ids[0]);
  });

  it('follows next_page_url with its cursor; a forged cursor is 400', async () => {
    const first = (await list(commenter, feed.id, { per_page: 4 })).body.comments;
    expect(first.data.map((item) => item.id)).toEqual(ids.slice(0, 4));
    expect(first.last_page).toBe(2);
    const next = new URL(first.next_page_url as string);
    expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await api<{ comments: Paginator }>(
      'GET',
      `${next.pathname.replace(/^\/v2/, '')}${next.search}`,
      { as: commenter },
    );
    expect(second.body.comments.data.map((item) => item.id)).toEqual(ids.slice(4));
    expect(second.body.comments).toMatchObject({ current_page: 2, from: 5, to: 6, next_page_url: null });
    expectError(
      await list(commenter, feed.id, { per_page: 4, page: 2, cursor: 'AAAAforged' }),
      400,
      'rest_invalid_param',
    );
    expect((await list(commenter, feed.id, { page: 9 })).body.comments).toMatchObject({ data: [], total: 6 });
    for (const query of [{ page: 0 }, { per_page: 0 }, { per_page: 101 }] as Record<string, number>[]) {
      expectError(await list(commenter, feed.id, query), 400, 'rest_invalid_param');
    }
  });

  it('hides the comments of a feed the caller may not see (404)', async () => {
    expectError(await list(outsider, feed.id), 404, 'not_found');
    expectError(await list(author, 999_999_999), 404, 'not_found');
  });
});

describe('notifications of comments and mentions', () => {
  it('notifies the feed author once of someone else’s comment, never of their own', async () => {
    const feed = await postFeed(author, { space_id: publicSpace, title: 'Notify me' });
    const before = (await notificationsOf(author, 'new_comment')).length;
    const created = (await comment(commenter, feed.id, { message: 'Hello author' })).body.comment;
    await comment(author, feed.id, { message: 'my own comment' });
    const after = await notificationsOf(author, 'new_comment', before + 1);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({
      type: 'new_comment',
      actor_id: commenter.id,
      object_id: created.id,
      object_type: 'comment',
      message: 'Hello author',
      title: 'The Commenter commented on your post',
    });
  });

  it('notifies the parent comment’s author of a reply (new_reply) and the feed author of the comment', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const ofFeed = (items: Array<Record<string, unknown>>) =>
      items.filter((item) => String(item.action_url).startsWith(`/feeds/${feed.id}?`));
    const until = (user: TestUser, type: string, count: number) =>
      waitForNotifications(user, (items) => ofFeed(items).length >= count, { type }).then(ofFeed);
    const parent = (await comment(commenter, feed.id, { message: 'parent' })).body.comment;
    const reply = (await comment(outsider, feed.id, { message: 'a reply', parent_id: parent.id })).body
      .comment;
    // The feed author replying to a comment on their own feed notifies only the parent's author.
    const own = (await comment(author, feed.id, { message: 'author reply', parent_id: parent.id })).body
      .comment;
    const replies = await until(commenter, 'new_reply', 2);
    expect(replies.map((item) => item.object_id).sort()).toEqual([reply.id, own.id].sort());
    const comments = await until(author, 'new_comment', 2);
    expect(comments.map((item) => item.object_id).sort()).toEqual([parent.id, reply.id].sort());
  });

  it('notifies mentioned users who can see the content, never the actor', async () => {
    const feed = await postFeed(author, {
      space_id: privateSpace,
      message: `Hi @${commenter.username} and @${outsider.username} and @${author.username}`,
    });
    expect(feed.message_rendered).toContain(`<a href="/u/${commenter.username}" class="mention"`);
    const [commenterMentions, outsiderMentions, authorMentions] = await Promise.all([
      waitForNotifications(commenter, (items) => items.some((item) => item.object_id === feed.id), {
        type: 'mention',
      }),
      notificationsOf(outsider, 'mention'),
      notificationsOf(author, 'mention'),
    ]);
    expect(commenterMentions.filter((item) => item.object_id === feed.id)).toHaveLength(1);
    expect(outsiderMentions.filter((item) => item.object_id === feed.id)).toHaveLength(0);
    expect(authorMentions.filter((item) => item.object_id === feed.id)).toHaveLength(0);

    const publicFeed = await postFeed(author, { space_id: publicSpace });
    const mention = (await comment(commenter, publicFeed.id, { message: `cc @${outsider.username}` })).body
      .comment;
    const mentioned = await waitForNotifications(
      outsider,
      (items) => items.some((item) => item.object_id === mention.id),
      { type: 'mention' },
    );
    expect(
      mentioned.filter((item) => item.object_id === mention.id && item.object_type === 'comment'),
    ).toHaveLength(1);
  });
});
