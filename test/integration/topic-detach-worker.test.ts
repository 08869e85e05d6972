import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../support/sqs-event.ts';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/detach-topic.ts';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { postKey, topicPosts, topicUnlistedPosts } from '../../shared/db/keys/feeds.ts';
import { topicDetachKey, topicKey } from '../../shared/db/keys/topics.ts';
import { getItem, queryItems } from '../../shared/db/reads.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { PostItemSchema } from '../../shared/domain/feeds/post-item.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { deleteTopic } from '../../shared/domain/topics/delete-topic.ts';
import { detachTopicFromFeeds } from '../../shared/domain/topics/topic-link-repository.ts';
import { createTestUser } from '../support/api.ts';
import { commandNamesSentBy } from '../support/sent-commands.ts';

/**
 * Issue 21, item 19: `DELETE /admin/topics/{id}` answers in time that does not grow with the feeds carrying the
 * topic (the same DynamoDB calls for 5 feeds and for 120), and the `topics` worker detaches it afterwards, a
 * bounded number of links per message, until no link and no post's `topic_ids` names it. The use case and the
 * worker are called in this process (the local stack's poller may run the same messages too: detaching is
 * idempotent).
 */

const AnyItem = v.object({ pk: v.string(), sk: v.string() });
let caller: Caller;
let author: string;

beforeAll(async () => {
  const admin = await createTestUser({ hostRole: 'administrator' });
  caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  author = (await createTestUser()).username;
});

const token = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A topic on `feeds` feeds (every fourth a draft), imported. */
async function topicOnFeeds(feeds: number) {
  const tag = token();
  const result = await runImport({
    topics: [{ ref: 't', title: `Detach ${tag}`, slug: `detach-${tag}` }],
    feeds: Array.from({ length: feeds }, (_, i) => ({
      ref: `f${i}`,
      user: author,
      message: `Feed ${i}`,
      topics: ['t'],
      status: i % 4 === 0 ? 'draft' : 'published',
    })),
  });
  return { topicId: result.topics.t as number, postIds: Object.values(result.feeds) as number[] };
}

async function linksOf(topicId: number) {
  const lists = await Promise.all([
    queryItems(topicPosts(topicId), AnyItem),
    queryItems(topicUnlistedPosts(topicId), AnyItem),
  ]);
  return lists.flat();
}

const eventOf = (topicId: number): SQSEvent => sqsEvent('topics', [JSON.stringify({ topic_id: topicId })]);

describe('issue 21 item 19: a topic delete does not wait for its feeds', () => {
  it('sends the same DynamoDB calls for a topic on 5 feeds and on 120, and detaches none of them', async () => {
    const few = await topicOnFeeds(5);
    const many = await topicOnFeeds(120);
    const forFew = await commandNamesSentBy(() => deleteTopic(caller, few.topicId));
    const forMany = await commandNamesSentBy(() => deleteTopic(caller, many.topicId));
    expect(forMany).toEqual(forFew);
    expect(forMany.filter((command) => command === 'TransactWriteItemsCommand')).toHaveLength(1);
    // Every read treats it as gone at once; the worker (the local stack's poller) detaches it, then its marker goes.
    expect(await getItem(topicKey(many.topicId), AnyItem, { consistent: true })).toBeUndefined();
    const deadline = Date.now() + 30_000;
    while (await getItem(topicDetachKey(many.topicId), AnyItem, { consistent: true })) {
      if (Date.now() > deadline) throw new Error('the topics worker did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await linksOf(many.topicId)).toEqual([]);
  });

  it('the worker detaches a bounded number of links per pass, then all of them', async () => {
    const { topicId, postIds } = await topicOnFeeds(120);
    // The delete's removal alone (no message is sent, so only this test runs the worker for it).
    await db().send(new DeleteCommand({ TableName: tableName(), Key: topicKey(topicId) }));

    // One bounded pass: 50 links (one transaction), more remain.
    const pass = await detachTopicFromFeeds(topicId, 50);
    expect(pass).toEqual({ removed: 50, more: true });

    const deadline = Date.now() + 30_000;
    while ((await linksOf(topicId)).length > 0) {
      if (Date.now() > deadline) throw new Error('the detach did not finish in time');
      expect((await handler(eventOf(topicId))).batchItemFailures).toEqual([]);
    }
    const posts = await Promise.all(
      postIds.map((id) => getItem(postKey(id), PostItemSchema, { consistent: true })),
    );
    expect(posts.filter((post) => post?.topic_ids?.includes(topicId))).toEqual([]);
    expect(posts.every((post) => post !== undefined)).toBe(true);
  });

  it('a message for a topic that exists detaches nothing', async () => {
    const { topicId } = await topicOnFeeds(3);
    expect((await handler(eventOf(topicId))).batchItemFailures).toEqual([]);
    expect(await linksOf(topicId)).toHaveLength(3);
  });
});
