import type { Caller } from '../auth/caller.ts';
import type { NotificationType } from './notification-item.ts';
import { type NotificationResponse, toNotificationResponses } from './notification-mapper.ts';
import { getNotificationStats, queryNotificationPage } from './notification-repository.ts';

export interface ListNotificationsInput {
  readonly page: number;
  readonly perPage: number;
  readonly isRead?: boolean | undefined;
  readonly type?: NotificationType | undefined;
  readonly orderby: 'created_at' | 'id';
  readonly order: 'asc' | 'desc';
  readonly cursor?: string | undefined;
}

/**
 * The caller's notifications (a caller sees only their own). The total comes from the maintained stats item and
 * the page from one key-condition Query, so page 1 costs the same for 10 or 100 000 notifications.
 *
 * `orderby=id` uses the same index as `created_at`: the service allocates ids at creation from the sequence, so for
 * every notification it emits, id order and time order agree (up to requests racing within one millisecond).
 * Imported history keeps the `created_at` the operator gave it; where that disagrees with id order, pages follow
 * `created_at` and each page is ordered by id. A fourth copy per notification would buy exact id order for that
 * case only; the trade is documented in shared/db/access-patterns/notifications.md.
 */
export async function listNotifications(caller: Caller, input: ListNotificationsInput) {
  const [stats, page] = await Promise.all([
    getNotificationStats(caller.id),
    queryNotificationPage({
      userId: caller.id,
      isRead: input.isRead,
      type: input.type,
      ascending: input.order === 'asc',
      page: input.page,
      perPage: input.perPage,
      cursor: input.cursor,
    }),
  ]);
  const items = await toNotificationResponses(page.items);
  if (input.orderby === 'id') {
    items.sort((a, b) => (input.order === 'asc' ? a.id - b.id : b.id - a.id));
  }
  return {
    items: items as NotificationResponse[],
    total: totalFor(stats, input),
    page: input.page,
    perPage: input.perPage,
    nextCursor: page.nextCursor,
  };
}

function totalFor(
  stats: Awaited<ReturnType<typeof getNotificationStats>>,
  input: Pick<ListNotificationsInput, 'isRead' | 'type'>,
): number {
  const scope = input.type === undefined ? stats : (stats.byType[input.type] ?? { total: 0, unread: 0 });
  if (input.isRead === undefined) return scope.total;
  return input.isRead ? scope.total - scope.unread : scope.unread;
}
