import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../support/sqs-event.ts';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/store-notifications.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { listNotifications } from '../../shared/domain/notifications/list-notifications.ts';
import { markAllNotificationsRead } from '../../shared/domain/notifications/mark-all-notifications-read.ts';
import { notificationIdOf } from '../../shared/domain/notifications/notification-identity.ts';
import {
  findNotificationById,
  getNotificationStats,
} from '../../shared/domain/notifications/notification-repository.ts';
import type { NotifyMessage } from '../../shared/messages/index.ts';
import { createTestUser } from '../support/api.ts';

/** The `notify` worker called directly with SQS events (as Lambda and the local poller call it), on DynamoDB Local. */

const eventOf = (...messages: NotifyMessage[]): SQSEvent =>
  sqsEvent(
    'notify',
    messages.map((message) => JSON.stringify(message)),
  );

const message = (
  recipientIds: number[],
  actorId: number,
  overrides: Partial<NotifyMessage> = {},
): NotifyMessage => ({
  event_id: randomUUID(),
  occurred_at: new Date().toISOString(),
  type: 'space_join', // in-app only: no e-mail
  actor_id: actorId,
  recipient_ids: recipientIds,
  title: 'Someone joined',
  message: 'A member joined your space.',
  action_url: '/spaces/1',
  object_id: 1,
  object_type: 'space',
  ...overrides,
});

const callerOf = (user: { id: number; username: string }): Caller => ({
  id: user.id,
  username: user.username,
  hostRole: 'member',
  communityRoles: [],
  status: 'active',
});

async function listed(user: { id: number; username: string }, isRead?: boolean) {
  const page = await listNotifications(callerOf(user), {
    page: 1,
    per_page: 100,
    is_read: isRead,
    orderby: 'created_at',
    order: 'desc',
  });
  return page.items;
}

describe('notify worker', () => {
  it('stores one notification per recipient, never to the actor, and a redelivery stores nothing more', async () => {
    const [actor, first, second] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    const event = message([first.id, actor.id, second.id, second.id], actor.id);
    expect((await handler(eventOf(event))).batchItemFailures).toEqual([]);
    // The same message again, and twice within one batch (SQS delivers at least once).
    expect((await handler(eventOf(event))).batchItemFailures).toEqual([]);
    expect((await handler(eventOf(event, event))).batchItemFailures).toEqual([]);
    for (const user of [first, second]) {
      expect(await getNotificationStats(user.id)).toMatchObject({ total: 1, unread: 1 });
      const items = await listed(user);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        user_id: user.id,
        actor_id: actor.id,
        created_at: event.occurred_at.slice(0, 19),
      });
      expect(items[0]?.id).toBe(notificationIdOf(`${event.event_id}:${user.id}`, event.occurred_at));
    }
    expect((await getNotificationStats(actor.id)).total).toBe(0);
  });

  it('gives two events that draw the same id two notifications, and each redelivery finds its own', async () => {
    const [actor, recipient] = await Promise.all([createTestUser(), createTestUser()]);
    const occurredAt = new Date().toISOString();
    // Event ids whose notifications for this recipient hash to the same id (12 bits: found within a few hundred).
    const byId = new Map<number, string>();
    let pair: [string, string] | undefined;
    while (!pair) {
      const eventId = randomUUID();
      const id = notificationIdOf(`${eventId}:${recipient.id}`, occurredAt);
      const other = byId.get(id);
      if (other) pair = [other, eventId];
      else byId.set(id, eventId);
    }
    const [one, two] = pair.map((eventId) =>
      message([recipient.id], actor.id, { event_id: eventId, occurred_at: occurredAt }),
    ) as [NotifyMessage, NotifyMessage];
    expect((await handler(eventOf(one))).batchItemFailures).toEqual([]);
    expect((await handler(eventOf(two))).batchItemFailures).toEqual([]);
    expect((await handler(eventOf(two, one))).batchItemFailures).toEqual([]);
    const items = await listed(recipient);
    expect(items).toHaveLength(2);
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
    expect(await getNotificationStats(recipient.id)).toMatchObject({ total: 2, unread: 2 });
  });

  it('counts a notification older than a mark-all as new: restamped after the watermark, unread and listed', async () => {
    const [actor, recipient] = await Promise.all([createTestUser(), createTestUser()]);
    const early = message([recipient.id], actor.id);
    const late = message([recipient.id], actor.id, { occurred_at: new Date(Date.now() + 50).toISOString() });
    expect((await handler(eventOf(late))).batchItemFailures).toEqual([]);
    // The mark-all's watermark is the newest creation time (late's): early's event is older, and arrives after.
    expect((await markAllNotificationsRead(callerOf(recipient))).data.marked_count).toBe(1);
    expect((await handler(eventOf(early))).batchItemFailures).toEqual([]);
    const stats = await getNotificationStats(recipient.id);
    expect(stats).toMatchObject({ total: 2, unread: 1 });
    const unread = await listed(recipient, false);
    expect(unread).toHaveLength(1);
    const restamped = await findNotificationById(unread[0]!.id);
    expect(restamped!.created_at > late.occurred_at).toBe(true);
    expect(await listed(recipient, true)).toHaveLength(1);
  });

  it('fails a malformed message alone', async () => {
    const [actor, recipient] = await Promise.all([createTestUser(), createTestUser()]);
    const good = eventOf(message([recipient.id], actor.id));
    const bad = eventOf(message([recipient.id], actor.id)).Records[0]!;
    const answer = await handler({ Records: [...good.Records, { ...bad, body: '{"event_id":1}' }] });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: bad.messageId }]);
    expect((await getNotificationStats(recipient.id)).total).toBe(1);
  });
});
