import type { Caller } from '../auth/index.ts';
import type { NotificationStats, NotificationType } from './notification-item.ts';
import { type NotificationResponse, toNotificationResponses } from './notification-mapper.ts';
import { getNotificationStats, queryNotificationPage } from './notification-repository.ts';

/** The list's query as the contract delivers it (defaults applied there). */
export interface ListNotificationsInput {
  readonly page: number;
  readonly per_page: number;
  readonly is_read?: boolean | undefined;
  readonly type?: NotificationType | undefined;
  readonly orderby: 'created_at' | 'id';
  readonly order: 'asc' | 'desc';
  readonly cursor?: string | undefined;
}

export interface NotificationPage {
  readonly items: NotificationResponse[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly nextCursor: string | null;
}

/**
 * The caller's notifications (a caller sees only their own). The stats item comes first: its watermarks bound the
 * partitions read and its counters give the total, so page 1 costs the same for 10 or 100 000 notifications and a
 * page past the end reads nothing more.
 *
 * `orderby=id` uses the same index as `created_at`: ids are time-ordered from the event's time, which is the
 * notification's `created_at`, so the two orders agree for everything the service emits (up to events of one
 * millisecond, and a notification restamped after a bulk action's watermark). Imported
 * history keeps the `created_at` the operator gave it; where that disagrees with id order, pages follow
 * `created_at` and each page is ordered by id (documented in shared/db/access-patterns/notifications.md).
 */
export async function listNotifications(
  caller: Caller,
  input: ListNotificationsInput,
): Promise<NotificationPage> {
  const stats = await getNotificationStats(caller.id);
  const total = totalFor(stats, input);
  const page = await queryNotificationPage({
    userId: caller.id,
    isRead: input.is_read,
    type: input.type,
    ascending: input.order === 'asc',
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    stats,
    total,
  });
  const items = await toNotificationResponses(page.items, stats);
  if (input.orderby === 'id') {
    items.sort((a, b) => (input.order === 'asc' ? a.id - b.id : b.id - a.id));
  }
  return { items, total, page: input.page, perPage: input.per_page, nextCursor: page.nextCursor };
}

function totalFor(stats: NotificationStats, input: Pick<ListNotificationsInput, 'is_read' | 'type'>): number {
  const scope = input.type === undefined ? stats : (stats.byType[input.type] ?? { total: 0, unread: 0 });
  if (input.is_read === undefined) return scope.total;
  return input.is_read ? scope.total - scope.unread : scope.unread;
}
