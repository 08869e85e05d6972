import { waitForNotifications } from '../support/notifications.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, feedOf, postFeed } from '../support/feeds.ts';

/**
 * POST /feeds/{id}/react: the toggle, its answer, exact `reactions_count` under concurrent likes, likes on comments,
 * visibility, bad input, and the `new_reaction` notification (on like, not unlike, never to oneself).
 */

type ReactAnswer = { message: string; data: { liked: boolean; reactions_count: number } };

let author: TestUser;
let fan: TestUser;
let other: TestUser;
let outsider: TestUser;
let publicSpace: number;
let privateSpace: number;

beforeAll(async () => {
  [author, fan, other, outsider] = await Promise.all([
    createTestUser(),
    createTestUser({ displayName: 'The Fan' }),
    createTestUser(),
    createTestUser(),
  ]);
  const members = [
    [author, 'member'],
    [fan, 'member'],
    [other, 'member'],
  ] as const;
  [publicSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
  ]);
});

const react = (as: TestUser, feedId: number, body: unknown = { react_type: 'like' }) =>
  api<ReactAnswer>('POST', `/feeds/${feedId}/react`, { as, body });

describe('POST /feeds/{id}/react', () => {
  it('toggles the caller’s like and answers the new state and count', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const liked = await react(fan, feed.id);
    expect(liked.status, liked.text).toBe(200);
    expect(liked.body).toEqual({
      message: 'Reaction has been added.',
      data: { liked: true, reactions_count: 1 },
    });
    expect((await api('GET', `/feeds/${feed.id}`, { as: fan })).body).toMatchObject({
      feed: { liked: true, reactions_count: 1 },
    });
    const unliked = await react(fan, feed.id);
    expect(unliked.body).toEqual({
      message: 'Reaction has been removed.',
      data: { liked: false, reactions_count: 0 },
    });
    expect(await feedOf(fan, feed.id)).toMatchObject({ liked: false, reactions_count: 0 });
  });

  it('counts two concurrent likes by two users as 2', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const answers = await Promise.all([react(fan, feed.id), react(other, feed.id)]);
    expect(answers.map((answer) => answer.body.data.liked)).toEqual([true, true]);
    expect((await feedOf(author, feed.id))?.reactions_count).toBe(2);
  });

  it('never drifts under a burst of toggles by several users', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    // fan toggles 3 times (ends liked), other 2 times (ends not liked), author once (liked).
    await Promise.all([
      ...Array.from({ length: 3 }, () => react(fan, feed.id)),
      ...Array.from({ length: 2 }, () => react(other, feed.id)),
      react(author, feed.id),
    ]);
    expect((await feedOf(author, feed.id))?.reactions_count).toBe(2);
    expect(await feedOf(fan, feed.id)).toMatchObject({ liked: true });
    expect(await feedOf(other, feed.id)).toMatchObject({ liked: false });
  });

  it('likes a comment of the feed with comment_id', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const created = await api<{ comment: { id: number } }>('POST', `/feeds/${feed.id}/comments`, {
      as: author,
      body: { message: 'like me' },
    });
    const commentId = created.body.comment.id;
    const liked = await react(fan, feed.id, { react_type: 'like', comment_id: commentId });
    expect(liked.body.data).toEqual({ liked: true, reactions_count: 1 });
    const comments = await api<{
      comments: { data: Array<{ id: number; liked: boolean; reactions_count: number }> };
    }>('GET', `/feeds/${feed.id}/comments`, { as: fan });
    expect(comments.body.comments.data[0]).toMatchObject({ id: commentId, liked: true, reactions_count: 1 });
    // The feed's own count is untouched.
    expect((await feedOf(fan, feed.id))?.reactions_count).toBe(0);
    const elsewhere = await postFeed(author, { space_id: publicSpace });
    const params = expectError(
      await react(fan, elsewhere.id, { react_type: 'like', comment_id: commentId }),
      400,
      'rest_invalid_param',
    );
    expect(Object.keys(params as object)).toEqual(['comment_id']);
  });

  it('refuses bad input (400) and hidden or unknown feeds (404)', async () => {
    const feed = await postFeed(author, { space_id: privateSpace });
    const cases: [unknown, string][] = [
      [{ react_type: 'love' }, 'rest_invalid_param'],
      [{ react_type: 'like', extra: true }, 'rest_invalid_param'],
      [{}, 'rest_missing_callback_param'],
    ];
    for (const [body, code] of cases) expectError(await react(fan, feed.id, body), 400, code);
    expectError(await react(outsider, feed.id), 404, 'not_found');
    expectError(await react(fan, 999_999_999), 404, 'not_found');
    expect((await feedOf(author, feed.id))?.reactions_count).toBe(0);
  });

  it('notifies the author on a like (not on an unlike, never for one’s own)', async () => {
    const feed = await postFeed(author, { space_id: publicSpace, title: 'Like this' });
    await react(fan, feed.id);
    await react(fan, feed.id);
    await react(author, feed.id);
    // Unlikes and one's own likes record no event: once the like's notification is stored, nothing else comes.
    const ofFeed = (items: Array<Record<string, unknown>>) =>
      items.filter((item) => item.object_id === feed.id);
    const after = ofFeed(
      await waitForNotifications(author, (items) => ofFeed(items).length >= 1, { type: 'new_reaction' }),
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      type: 'new_reaction',
      actor_id: fan.id,
      object_id: feed.id,
      object_type: 'feed',
      title: 'The Fan liked your post',
    });
  });
});
