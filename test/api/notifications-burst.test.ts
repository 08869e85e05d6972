import { CreateQueueCommand, DeleteQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';
import { type Poller, startPoller } from '../../infra/local/poller.ts';
import { QUEUES } from '../../shared/catalogue/index.ts';
import { resetEnvCache } from '../../shared/config/env.ts';
import { db } from '../../shared/db/client.ts';
import { getNotificationStats } from '../../shared/domain/notifications/notification-repository.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, postComment, postFeed } from '../support/feeds.ts';
import { waitForNotifications } from '../support/notifications.ts';

/**
 * The acceptance burst of issue 20: 300 concurrent comments, likes, replies and follows aimed at one member,
 * through a local gateway. Every notification is stored exactly once, the unread count is exact, no request fails,
 * and at most 5 % of the transactions involved are cancelled.
 *
 * The gateway and the `notify` worker run in this process (a gateway and a poller of this file's own, the worker
 * on a private queue), so a middleware on this process's DynamoDB client sees every TransactWriteItems of the
 * requests and of the worker, and counts the cancelled ones (no mock: it only observes).
 */

const METER = 'count-transactions';
const ACTORS = 75;
const transactions = { sent: 0, cancelled: 0 };

let gateway: Gateway;
let poller: Poller;
let sqs: SQSClient;
let queueUrl: string;
let target: TestUser;
let actors: TestUser[];
let feedId: number;
let commentId: number;

beforeAll(async () => {
  const stack = inject('stack');
  sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // This process's requests record their events on a queue only this file's poller reads.
  const created = await sqs.send(
    new CreateQueueCommand({ QueueName: `${stack.queuePrefix}-notify-burst-${process.pid}` }),
  );
  queueUrl = created.QueueUrl!;
  process.env.QUEUE_URL_NOTIFY = queueUrl;
  resetEnvCache();
  const entry = QUEUES.find((queue) => queue.name === 'notify')!;
  poller = startPoller({ sqsEndpoint: stack.sqsEndpoint, queues: [{ entry, url: queueUrl }] });
  gateway = await startGateway({ port: 0 });

  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      transactions.sent += 1;
      try {
        return await next(args);
      } catch (error) {
        if ((error as Error).name === 'TransactionCanceledException') transactions.cancelled += 1;
        throw error;
      }
    },
    { step: 'initialize', name: METER },
  );

  target = await createTestUser({ displayName: 'The Target' });
  actors = await Promise.all(Array.from({ length: ACTORS }, () => createTestUser()));
  const spaceId = await createSpace({
    members: [[target, 'member'], ...actors.map((actor) => [actor, 'member'] as const)],
  });
  feedId = (await postFeed(target, { space_id: spaceId, title: 'Burst target' })).id;
  commentId = (await postComment(target, feedId, 'Reply to me')).id as number;
}, 180_000);

afterAll(async () => {
  db().middlewareStack.remove(METER);
  await gateway?.close();
  await poller?.stop();
  await sqs?.send(new DeleteQueueCommand({ QueueUrl: queueUrl })).catch(() => undefined);
  sqs?.destroy();
});

describe('a burst of 300 events aimed at one member', () => {
  it('stores each notification once, counts unread exactly and cancels at most 5 % of transactions', {
    timeout: 300_000,
  }, async () => {
    const at = (path: string) => `${gateway.url}${path}`;
    transactions.sent = 0;
    transactions.cancelled = 0;
    const requests: Promise<ApiResponse>[] = actors.flatMap((actor, n) => [
      api('POST', at(`/feeds/${feedId}/comments`), { as: actor, body: { message: `comment ${n}` } }),
      api('POST', at(`/feeds/${feedId}/react`), { as: actor, body: { react_type: 'like' } }),
      api('POST', at(`/feeds/${feedId}/comments`), {
        as: actor,
        body: { message: `reply ${n}`, parent_id: commentId },
      }),
      api('POST', at(`/profile/${target.username}/follow`), { as: actor }),
    ]);
    const responses = await Promise.all(requests);
    const failed = responses.filter((response) => response.status >= 300);
    expect(failed.map((response) => `${response.status} ${response.text}`)).toEqual([]);

    const deadline = Date.now() + 120_000;
    while ((await getNotificationStats(target.id)).total < 4 * ACTORS) {
      if (Date.now() > deadline) throw new Error('the burst’s notifications were not all stored');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await poller.idle();

    const stats = await getNotificationStats(target.id);
    expect(stats).toMatchObject({ total: 4 * ACTORS, unread: 4 * ACTORS });
    for (const type of ['new_comment', 'new_reaction', 'new_reply', 'new_follower']) {
      expect(stats.byType[type], type).toEqual({ total: ACTORS, unread: ACTORS });
    }
    // Each exactly once: every (type, actor) pair appears once among everything listed.
    const listed = [];
    for (let page = 1; page <= 3; page++) {
      listed.push(...(await waitForNotifications(target, () => true, { page })));
    }
    expect(listed).toHaveLength(4 * ACTORS);
    expect(new Set(listed.map((item) => item.id)).size).toBe(4 * ACTORS);
    expect(new Set(listed.map((item) => `${item.type}:${item.actor_id}`)).size).toBe(4 * ACTORS);
    const unread = await api<{ unread_count: number }>('GET', '/notifications/unread', { as: target });
    expect(unread.body.unread_count).toBe(4 * ACTORS);

    const share = transactions.cancelled / transactions.sent;
    process.stdout.write(
      `burst: ${responses.length} requests, ${transactions.sent} TransactWriteItems, ${transactions.cancelled} cancelled (${(100 * share).toFixed(1)} %)\n`,
    );
    expect(share).toBeLessThanOrEqual(0.05);
  });
});
