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
 * The caller's notifications (a caller sees only their own). The total comes from the maintained stats item and
 * the page from one key-condition Query, so page 1 costs the same for 10 or 100 000 notifications; a page past the
 * end reads nothing.
 *
 * `orderby=id` uses the same index as `created_at`: the service allocates ids at creation from the sequence, so for
 * every notification it emits, id order and time order agree (up to requests racing within one millisecond).
 * Imported history keeps the `created_at` the operator gave it; where that disagrees with id order, pages follow
 * `created_at` and each page is ordered by id. A fourth copy per notification would buy exact id order for that
 * case only; the trade is documented in shared/db/access-patterns/notifications.md.
 */
export async function listNotifications(
  caller: Caller,
  input: ListNotificationsInput,
): Promise<NotificationPage> {
  const query = (total?: number) =>
    queryNotificationPage({
      userId: caller.id,
      isRead: input.is_read,
      type: input.type,
      ascending: input.order === 'asc',
      page: input.page,
      perPage: input.per_page,
      cursor: input.cursor,
      total,
    });
  // A jump to a later page without a cursor reads the total first, so a page past the end reads nothing else;
  // page 1 and cursor-led pages read both at once.
  let total: number;
  let page: Awaited<ReturnType<typeof query>>;
  if (input.page > 1 && input.cursor === undefined) {
    total = totalFor(await getNotificationStats(caller.id), input);
    page = await query(total);
  } else {
    const [stats, found] = await Promise.all([getNotificationStats(caller.id), query()]);
    total = totalFor(stats, input);
    page = found;
  }
  const items = await toNotificationResponses(page.items);
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
