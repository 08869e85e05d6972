import { nextId } from '../../db/sequence.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import { logger } from '../../observability/logger.ts';
import { businessMetrics } from '../../observability/metrics.ts';
import { nowIso } from '../dates.ts';
import { announceStoredNotifications, storedUnreadCount } from '../live/index.ts';
import { appLink } from '../app-link.ts';
import { findUserById } from '../users/index.ts';
import type { NotificationItem, NotificationType } from './notification-item.ts';
import { wantsEmail } from './notification-preferences.ts';
import { findNotificationPreferences } from './notification-preferences-repository.ts';
import { getNotificationStats, insertNotification } from './notification-repository.ts';

export interface NotificationEvent {
  readonly type: NotificationType;
  /** The user whose action caused it; null for notifications without an acting user. */
  readonly actorId: number | null;
  readonly title: string;
  readonly message: string;
  readonly actionUrl: string;
  readonly objectId: number | null;
  readonly objectType: string;
  /** The event's own e-mail already went out (the synchronous invitation e-mail): no notification e-mail. */
  readonly alreadyEmailed?: boolean;
}

export interface NotificationEmission extends NotificationEvent {
  readonly recipientId: number;
}

/**
 * The notification service other domains call (decisions.md, Notifications): stores the notification and moves
 * the recipient's counters in one transaction, then, when the recipient's preferences ask for e-mail, enqueues a
 * message on the `mail` queue. Never notifies the actor. A failure to enqueue is logged and never fails the
 * emitting request, which never waits for SES. Answers the stored notification, or undefined when skipped.
 *
 * A route whose use case calls this needs `table: 'readWrite'` and `sendTo: ['mail']` in its catalogue line: the
 * cloud grants nothing else, and a refused send would only be logged.
 */
export async function emitNotification(
  emission: NotificationEmission,
): Promise<NotificationItem | undefined> {
  if (emission.actorId !== null && emission.recipientId === emission.actorId) return undefined;
  const id = await nextId('notification');
  let item: NotificationItem = {
    id,
    user_id: emission.recipientId,
    type: emission.type,
    title: emission.title,
    message: emission.message,
    action_url: emission.actionUrl,
    is_read: false,
    actor_id: emission.actorId,
    object_id: emission.objectId,
    object_type: emission.objectType,
    created_at: nowIso(),
    read_at: null,
  };
  // Creation times strictly increase per recipient (see notificationCreationActions): when a concurrent emission
  // to the same recipient committed a later time first, restamp just after it and try again.
  for (let attempt = 0; (await insertNotification(item)) === 'stale'; attempt++) {
    if (attempt >= 20)
      throw new Error(`Could not store notification ${id}: its recipient keeps receiving newer ones`);
    const { newestCreatedAt } = await getNotificationStats(item.user_id);
    const after = newestCreatedAt === undefined ? 0 : Date.parse(newestCreatedAt) + 1;
    item = { ...item, created_at: new Date(Math.max(Date.now(), after)).toISOString() };
  }
  businessMetrics.notificationEmitted(item.type);
  // Live push to the recipient's open apps (best effort, never throws). Moves to onNotificationsStored with the
  // notify worker (issue 20).
  await announceStoredNotifications(item.user_id, [item], storedUnreadCount(item.user_id));
  if (!emission.alreadyEmailed) await enqueueMailIfWanted(item);
  return item;
}

/** The batch form: one event to several recipients (the actor and duplicates are dropped). */
export async function emitNotifications(
  recipientIds: readonly number[],
  event: NotificationEvent,
): Promise<NotificationItem[]> {
  const recipients = [...new Set(recipientIds)].filter((id) => id !== event.actorId);
  const stored: NotificationItem[] = [];
  // Small waves keep a large audience (space_join to many moderators) from opening hundreds of requests at once.
  for (let start = 0; start < recipients.length; start += 10) {
    const wave = recipients.slice(start, start + 10);
    const results = await Promise.all(wave.map((recipientId) => emitNotification({ ...event, recipientId })));
    for (const item of results) if (item) stored.push(item);
  }
  return stored;
}

async function enqueueMailIfWanted(item: NotificationItem): Promise<void> {
  try {
    const [preferences, recipient] = await Promise.all([
      findNotificationPreferences(item.user_id),
      findUserById(item.user_id),
    ]);
    if (!wantsEmail(preferences, item.type) || !recipient?.email) return;
    await publish('mail', {
      dedupe_id: `notification-${item.id}`,
      to: recipient.email,
      subject: item.title || 'New notification',
      text: [item.message, item.action_url && appLink(item.action_url)].filter(Boolean).join('\n\n'),
    });
  } catch (error) {
    logger.error('could not enqueue notification e-mail', { notificationId: item.id, error });
  }
}
