import { publishBatch } from '../../integrations/queue-publisher.ts';
import type { MailMessage } from '../../messages/index.ts';
import { appLink } from '../app-link.ts';
import { announceStoredNotifications, storedUnreadCount } from './live-announcements.ts';
import { findUsersByIds } from '../users/index.ts';
import type { NotificationItem } from './notification-item.ts';
import { wantsEmail } from './notification-preferences.ts';
import { findNotificationPreferences } from './notification-preferences-repository.ts';

/** A notification of the batch the `notify` worker just handled. */
export interface StoredNotification {
  readonly item: NotificationItem;
  /** Stored by this delivery; false when an earlier delivery of the same event had stored it already. */
  readonly fresh: boolean;
  /** The event's own e-mail already went out (the invitation e-mail): no notification e-mail. */
  readonly alreadyEmailed: boolean;
}

/**
 * Runs once per worker batch, after its notifications are stored and counted (readable by their recipients). The one
 * place that knows a stored batch: it queues the e-mails the recipients' preferences ask for (decisions.md; the
 * `mail` worker sends each at most once, keyed by the notification id, so a notification a redelivery finds stored
 * is queued again safely in case the earlier delivery stopped before this step), and pushes the fresh ones to the
 * recipients' open live connections (best effort, never throws). A failure throws: the worker fails the batch's
 * messages and their redelivery comes back here.
 */
export async function onNotificationsStored(stored: readonly StoredNotification[]): Promise<void> {
  await Promise.all([
    queueNotificationMails(stored.filter((entry) => !entry.alreadyEmailed).map((entry) => entry.item)),
    announceFresh(stored.filter((entry) => entry.fresh).map((entry) => entry.item)),
  ]);
}

/** Recipients announced at once: a batch can reach hundreds of recipients (a space's staff). */
const ANNOUNCE_CONCURRENCY = 10;

/**
 * Each recipient's open connections hear of their new notifications (a redelivery that finds them stored already
 * announces nothing again); the unread count is read only for a recipient with a connection.
 */
async function announceFresh(items: readonly NotificationItem[]): Promise<void> {
  const byRecipient = Map.groupBy(items, (item) => item.user_id);
  const recipients = [...byRecipient.entries()];
  for (let start = 0; start < recipients.length; start += ANNOUNCE_CONCURRENCY) {
    await Promise.all(
      recipients
        .slice(start, start + ANNOUNCE_CONCURRENCY)
        .map(([recipientId, own]) =>
          announceStoredNotifications(recipientId, own, storedUnreadCount(recipientId)),
        ),
    );
  }
}

async function queueNotificationMails(items: readonly NotificationItem[]): Promise<void> {
  if (items.length === 0) return;
  const recipientIds = [...new Set(items.map((item) => item.user_id))];
  const [users, preferences] = await Promise.all([
    findUsersByIds(recipientIds),
    Promise.all(recipientIds.map(async (id) => [id, await findNotificationPreferences(id)] as const)),
  ]);
  const preferencesOf = new Map(preferences);
  const mails: MailMessage[] = [];
  for (const item of items) {
    const email = users.get(item.user_id)?.email;
    const wanted = preferencesOf.get(item.user_id);
    if (!email || !wanted || !wantsEmail(wanted, item.type)) continue;
    mails.push({
      dedupe_id: `notification-${item.id}`,
      to: email,
      subject: item.title || 'New notification',
      text: [item.message, item.action_url && appLink(item.action_url)].filter(Boolean).join('\n\n'),
    });
  }
  await publishBatch('mail', mails);
}
