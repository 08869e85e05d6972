import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/sweep-feed.ts';
import { commentKey, postKey, postReactions, postSweepKey } from '../../shared/db/keys/feeds.ts';
import { getItem, queryItems } from '../../shared/db/reads.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { deleteFeed } from '../../shared/domain/feeds/delete-feed.ts';
import { findUserStats, writeFeedActions } from '../../shared/domain/feeds/feed-repository.ts';
import { feedSweepMarkerAction } from '../../shared/domain/feeds/feed-sweep-repository.ts';
import { feedDeletionActions } from '../../shared/domain/feeds/feed-writes.ts';
import { PostItemSchema } from '../../shared/domain/feeds/post-item.ts';
import { reactToFeed } from '../../shared/domain/feeds/react-to-feed.ts';
import { sweepFeedChildren } from '../../shared/domain/feeds/sweep-feed-children.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { sqsEvent } from '../support/sqs-event.ts';
import { commandNamesSentBy } from '../support/sent-commands.ts';

/**
 * Issue 20 item 6: `DELETE /feeds/{id}` answers in the same DynamoDB calls whatever the feed's comments and likes
 * (three rounds), and the `feeds` worker removes them afterwards, a bounded number per message, with their
 * authors' counters, until its sweep marker goes. The use case and the worker are called in this process (the
 * local stack's poller may run the same messages too: sweeping is idempotent).
 */

const AnyItem = v.object({ pk: v.string(), sk: v.string() });
let author: TestUser;
let authorCaller: Caller;

const callerOf = (user: TestUser): Caller => ({
  id: user.id,
  username: user.username,
  hostRole: 'member',
  communityRoles: [],
  status: 'active',
});

beforeAll(async () => {
  author = await createTestUser();
  authorCaller = callerOf(author);
});

const token = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A published global feed by `author` with `count` comments by `commenter`, imported. */
async function feedWithComments(commenter: TestUser, count: number) {
  const tag = token();
  const result = await runImport({
    feeds: [{ ref: 'f', user: author.username, message: `Sweep ${tag}`, topics: [], status: 'published' }],
    comments: Array.from({ length: count }, (_, i) => ({
      ref: `c${i}`,
      user: commenter.username,
      feed: 'f',
      parent: null,
      message: `Comment ${i}`,
    })),
  });
  return {
    feedId: result.feeds.f as number,
    commentIds: Object.values(result.comments ?? {}) as number[],
  };
}

/**
 * The delete's transaction (the feed, its listing entry and everything it counted; its sweep marker if asked) without
 * the `feeds` message, so only the test runs the worker. The whole transaction, not a bare delete of the post item:
 * the table is shared with every other file, whose timeline pages and totals must stay exact.
 */
async function deleteWithoutMessage(feedId: number, options: { marker: boolean }): Promise<void> {
  const post = await getItem(postKey(feedId), PostItemSchema, { consistent: true });
  if (!post) throw new Error(`feed ${feedId} is not there to delete`);
  const outcome = await writeFeedActions([
    ...feedDeletionActions(post, new Set()),
    ...(options.marker ? [feedSweepMarkerAction(post)] : []),
  ]);
  expect(outcome.written).toBe(true);
}

const markerOf = (feedId: number) => getItem(postSweepKey(feedId), AnyItem, { consistent: true });
const remaining = async (commentIds: readonly number[]) =>
  (await Promise.all(commentIds.map((id) => getItem(commentKey(id), AnyItem, { consistent: true })))).filter(
    (item) => item !== undefined,
  );
const sweepEvent = (feedId: number, left: number) =>
  sqsEvent('feeds', [JSON.stringify({ post_id: feedId, comments_left: left })]);

describe('issue 20 item 6: a feed delete does not wait for its comments and likes', () => {
  it('sends the same DynamoDB calls for a feed with 2 comments and with 40; the worker then removes them', async () => {
    const commenter = await createTestUser();
    const few = await feedWithComments(commenter, 2);
    const many = await feedWithComments(commenter, 40);
    await reactToFeed(callerOf(commenter), many.feedId, { react_type: 'like' });
    await reactToFeed(callerOf(commenter), many.feedId, {
      react_type: 'like',
      comment_id: many.commentIds[0] as number,
    });
    const before = await findUserStats(commenter.id);

    const forFew = await commandNamesSentBy(() => deleteFeed(authorCaller, few.feedId));
    const forMany = await commandNamesSentBy(() => deleteFeed(authorCaller, many.feedId));
    expect(forMany).toEqual(forFew);
    expect(forMany.filter((command) => command === 'TransactWriteItemsCommand')).toHaveLength(1);
    // The feed and its marker; (a global feed without topics: no membership or topic to read); the transaction.
    expect(forMany).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);

    // The local stack's poller runs the `feeds` worker; done, the marker goes.
    await expect
      .poll(
        async () => (await markerOf(many.feedId)) === undefined && (await markerOf(few.feedId)) === undefined,
        {
          timeout: 30_000,
          interval: 200,
        },
      )
      .toBe(true);
    expect(await remaining([...few.commentIds, ...many.commentIds])).toEqual([]);
    expect(await queryItems(postReactions(many.feedId), AnyItem, { consistent: true })).toEqual([]);
    const after = await findUserStats(commenter.id);
    expect(after.comments_published).toBe((before.comments_published ?? 0) - 42);
    expect(after.comments_published_public).toBe((before.comments_published_public ?? 0) - 42);
  });

  it('the worker removes a bounded number per step, then the rest, counting each comment once', async () => {
    const commenter = await createTestUser();
    const { feedId, commentIds } = await feedWithComments(commenter, 30);
    const before = await findUserStats(commenter.id);
    // The delete's own writes for the sweep alone (no message is sent, so only this test runs the worker for it).
    await deleteWithoutMessage(feedId, { marker: true });

    const step = await sweepFeedChildren(feedId, 30, 10);
    expect(step.finished).toBe(false);
    expect(step.commentsLeft).toBeLessThan(30);
    expect((await remaining(commentIds)).length).toBe(step.commentsLeft);

    const deadline = Date.now() + 30_000;
    while (await markerOf(feedId)) {
      if (Date.now() > deadline) throw new Error('the sweep did not finish in time');
      expect((await handler(sweepEvent(feedId, 30))).batchItemFailures).toEqual([]);
    }
    expect(await remaining(commentIds)).toEqual([]);
    expect((await findUserStats(commenter.id)).comments_published).toBe(
      (before.comments_published ?? 0) - 30,
    );
  });

  it('two sweeps of one feed at once (a message redelivered while it runs) count each comment once', async () => {
    const commenter = await createTestUser();
    const { feedId, commentIds } = await feedWithComments(commenter, 30);
    const before = await findUserStats(commenter.id);
    await deleteWithoutMessage(feedId, { marker: false });
    const steps = await Promise.all([sweepFeedChildren(feedId, 30), sweepFeedChildren(feedId, 30)]);
    expect(steps.map((step) => step.finished)).toEqual([true, true]);
    expect(await remaining(commentIds)).toEqual([]);
    expect((await findUserStats(commenter.id)).comments_published).toBe(
      (before.comments_published ?? 0) - 30,
    );
  });

  it('a message for a feed without a sweep marker removes nothing', async () => {
    const commenter = await createTestUser();
    const { feedId, commentIds } = await feedWithComments(commenter, 3);
    expect((await handler(sweepEvent(feedId, 3))).batchItemFailures).toEqual([]);
    expect(await remaining(commentIds)).toHaveLength(3);
    expect(await getItem(postKey(feedId), AnyItem, { consistent: true })).toBeDefined();
  });
});
