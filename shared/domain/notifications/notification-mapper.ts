import { toIsoDateTime, toIsoDateTimeOrNull } from '../dates.ts';
import { findUsersByIds, type MemberSummary, toMemberSummary, type UserItem } from '../users/index.ts';
import {
  type NotificationItem,
  type NotificationStats,
  notificationActorId,
  type NotificationType,
  withBulkState,
} from './notification-item.ts';

/** The contract's Notification list item. Only these fields leave; keys and index attributes never do. */
export interface NotificationResponse {
  id: number;
  user_id: number;
  type: NotificationType;
  title: string;
  message: string;
  action_url: string;
  is_read: boolean;
  actor_id: number | null;
  object_id: number | null;
  object_type: string;
  created_at: string;
  read_at: string | null;
  xprofile: MemberSummary | null;
}

export function toNotificationResponse(
  item: NotificationItem,
  actors: ReadonlyMap<number, UserItem>,
): NotificationResponse {
  const actorId = notificationActorId(item);
  const actor = actorId === null ? undefined : actors.get(actorId);
  return {
    id: item.id,
    user_id: item.user_id,
    type: item.type,
    title: item.title,
    message: item.message,
    action_url: item.action_url,
    is_read: item.is_read,
    actor_id: actorId,
    object_id: item.object_id,
    object_type: item.object_type,
    created_at: toIsoDateTime(item.created_at),
    read_at: toIsoDateTimeOrNull(item.read_at),
    xprofile: actor ? toMemberSummary(actor) : null,
  };
}

/**
 * Maps a page of items as the recipient must see them (bulk actions' watermarks applied), reading the actors'
 * profiles in one BatchGetItem (≤ 100 ids: the page size bound).
 */
export async function toNotificationResponses(
  items: readonly NotificationItem[],
  stats: NotificationStats,
): Promise<NotificationResponse[]> {
  const actorIds = items.flatMap((item) => {
    const actorId = notificationActorId(item);
    return actorId === null ? [] : [actorId];
  });
  const actors = actorIds.length > 0 ? await findUsersByIds(actorIds) : new Map<number, UserItem>();
  return items.map((item) => toNotificationResponse(withBulkState(item, stats), actors));
}
