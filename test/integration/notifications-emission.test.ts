import { describe, expect, it } from 'vitest';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { deleteAllNotifications } from '../../shared/domain/notifications/delete-all-notifications.ts';
import { emitNotification, emitNotifications } from '../../shared/domain/notifications/emit-notification.ts';
import { listNotifications } from '../../shared/domain/notifications/list-notifications.ts';
import { listUnreadNotifications } from '../../shared/domain/notifications/list-unread-notifications.ts';
import { markAllNotificationsRead } from '../../shared/domain/notifications/mark-all-notifications-read.ts';
import type { NotificationStats } from '../../shared/domain/notifications/notification-item.ts';
import { getNotificationStats } from '../../shared/domain/notifications/notification-repository.ts';
import { createTestUser } from '../support/api.ts';

/** The notification service and the bulk operations' counter invariants, against DynamoDB Local. */

const callerOf = (user: { id: number; username: string }): Caller => ({
  id: user.id,
  username: user.username,
  hostRole: 'member',
  communityRoles: [],
  status: 'active',
});

const event = (actorId: number | null) => ({
  type: 'space_join' as const, // in-app only: these tests enqueue no mail
  actorId,
  title: 'Someone joined',
  message: 'A member joined your space.',
  actionUrl: '/spaces/1',
  objectId: 1,
  objectType: 'space',
});

async function allIds(caller: Caller, isRead?: boolean): Promise<number[]> {
  const page = await listNotifications(caller, {
    page: 1,
    per_page: 100,
    is_read: isRead,
    orderby: 'created_at',
    order: 'desc',
  });
  return page.items.map((item) => item.id);
}

/** Polls the recipient's stats until `until` holds (the notify worker stores notifications asynchronously). */
async function statsWhen(userId: number, until: (stats: NotificationStats) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await getNotificationStats(userId);
    if (until(stats)) return stats;
    if (Date.now() > deadline) throw new Error(`stats never matched: ${JSON.stringify(stats)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('emitNotification', () => {
  it('never notifies the actor and deduplicates recipients', async () => {
    const [actor, other] = await Promise.all([createTestUser(), createTestUser()]);
    await emitNotification({ ...event(actor.id), recipientId: actor.id });
    await emitNotifications([actor.id, other.id, other.id], event(actor.id));
    expect(await statsWhen(other.id, (stats) => stats.total > 0)).toMatchObject({ total: 1, unread: 1 });
    expect(await allIds(callerOf(other))).toHaveLength(1);
    expect((await getNotificationStats(actor.id)).total).toBe(0);
  });
});

describe('bulk operations under concurrency', () => {
  it('mark-all-read while notifications are created: counts stay exact', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    const caller = callerOf(recipient);
    await emitNotifications([recipient.id], event(actor.id));
    for (let i = 0; i < 15; i++) await emitNotification({ ...event(actor.id), recipientId: recipient.id });
    await statsWhen(recipient.id, (stats) => stats.total === 16);

    const concurrent = 30;
    const [marked] = await Promise.all([
      markAllNotificationsRead(caller),
      ...Array.from({ length: concurrent }, () =>
        emitNotification({ ...event(actor.id), recipientId: recipient.id }),
      ),
    ]);
    const created = 16 + concurrent;
    const stats = await statsWhen(recipient.id, (current) => current.total === created);
    const unreadIds = await allIds(caller, false);
    expect(stats.unread).toBe(unreadIds.length);
    expect(marked.data.marked_count + unreadIds.length).toBe(created);
    expect((await listUnreadNotifications(caller)).unread_count).toBe(unreadIds.length);
  });

  it('delete-all while notifications are created: deleted + remaining = created', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    const caller = callerOf(recipient);
    for (let i = 0; i < 20; i++) await emitNotification({ ...event(actor.id), recipientId: recipient.id });
    await statsWhen(recipient.id, (stats) => stats.total === 20);
    const [deleted] = await Promise.all([
      deleteAllNotifications(caller),
      ...Array.from({ length: 20 }, () =>
        emitNotification({ ...event(actor.id), recipientId: recipient.id }),
      ),
    ]);
    const stats = await statsWhen(
      recipient.id,
      (current) => deleted.data.deleted_count + current.total === 40,
    );
    const remaining = await allIds(caller);
    expect(remaining).toHaveLength(stats.total);
    expect(stats.unread).toBe(remaining.length);
  });
});
