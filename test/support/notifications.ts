import {
  emitNotification,
  type NotificationEvent,
} from '../../shared/domain/notifications/emit-notification.ts';
import { api, type TestUser } from './api.ts';

/**
 * Notifications are stored by the `notify` queue's worker, a moment after the request that causes them answers
 * (usually well under a second locally). Tests that read them poll with a deadline, never sleep.
 */
export type ListedNotification = Record<string, unknown> & {
  id: number;
  type: string;
  is_read: boolean;
  object_id: number | null;
  actor_id: number | null;
};

const POLL_MS = 25;

/**
 * Polls `GET /notifications` (first 100, newest first, with `query`) as `user` until `until(items, total)` holds;
 * answers those items. Throws at the deadline with what was listed last.
 */
export async function waitForNotifications(
  user: TestUser,
  until: (items: ListedNotification[], total: number) => boolean,
  query: Record<string, string | number | boolean> = {},
  timeoutMs = 10_000,
): Promise<ListedNotification[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api<{ notifications: { data: ListedNotification[]; total: number } }>(
      'GET',
      '/notifications',
      { as: user, query: { per_page: 100, ...query } },
    );
    if (response.status !== 200) throw new Error(`GET /notifications: ${response.status} ${response.text}`);
    const { data, total } = response.body.notifications;
    if (until(data, total)) return data;
    if (Date.now() > deadline) {
      throw new Error(`notifications not there within ${timeoutMs} ms; last listed: ${JSON.stringify(data)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Waits until `user` has at least `count` notifications matching `query`; answers them. */
export const waitForNotificationCount = (
  user: TestUser,
  count: number,
  query: Record<string, string | number | boolean> = {},
): Promise<ListedNotification[]> => waitForNotifications(user, (_, total) => total >= count, query);

/**
 * Emits notifications to `recipient` from the test process, as a causing request does (one `notify` message each,
 * in this order), and waits until the worker has stored them all; answers them oldest first. Nothing else may
 * notify `recipient` meanwhile.
 */
export async function emitStored(
  recipient: TestUser,
  events: readonly NotificationEvent[],
): Promise<ListedNotification[]> {
  const before = new Set((await waitForNotifications(recipient, () => true)).map((item) => item.id));
  for (const event of events) await emitNotification({ ...event, recipientId: recipient.id });
  const isNew = (item: ListedNotification) => !before.has(item.id);
  const listed = await waitForNotifications(
    recipient,
    (items) => items.filter(isNew).length >= events.length,
  );
  return listed.filter(isNew).reverse();
}
