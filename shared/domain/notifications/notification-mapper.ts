import { toIsoDateTime, toIsoDateTimeOrNull } from '../dates.ts';
import type * as v from 'valibot';
import type { memberSummarySchema } from '../../contracts/notifications.ts';
import type { UserItem } from '../users/user-item.ts';
import { findUsersByIds } from '../users/user-repository.ts';
import type { NotificationItem, NotificationType } from './notification-item.ts';

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

const SOCIAL_KEYS = ['twitter', 'youtube', 'linkedin', 'fb', 'instagram'] as const;

export type MemberSummary = v.InferOutput<typeof memberSummarySchema>;

/** The contract's member summary (`xprofile`) of a user. */
export function toMemberSummary(user: UserItem): MemberSummary {
  return {
    user_id: user.id,
    total_points: user.total_points ?? 0,
    is_verified: user.is_verified ?? 0,
    status: user.status,
    display_name: user.display_name,
    username: user.username,
    avatar: user.avatar ?? '',
    created_at: toIsoDateTime(user.created_at),
    short_description: user.short_description ?? '',
    meta: {
      website: user.website ?? '',
      cover_photo: user.cover_photo ?? '',
      social_links: Object.fromEntries(
        SOCIAL_KEYS.map((key) => [key, user.social_links?.[key] ?? '']),
      ) as Record<(typeof SOCIAL_KEYS)[number], string>,
      badge_slug: user.badge_slugs ?? [],
    },
    badge: null,
  };
}

export function toNotificationResponse(
  item: NotificationItem,
  actors: ReadonlyMap<number, UserItem>,
): NotificationResponse {
  const actor = item.actor_id === null ? undefined : actors.get(item.actor_id);
  return {
    id: item.id,
    user_id: item.user_id,
    type: item.type,
    title: item.title,
    message: item.message,
    action_url: item.action_url,
    is_read: item.is_read,
    actor_id: item.actor_id,
    object_id: item.object_id,
    object_type: item.object_type,
    created_at: toIsoDateTime(item.created_at),
    read_at: toIsoDateTimeOrNull(item.read_at),
    xprofile: actor ? toMemberSummary(actor) : null,
  };
}

/** Maps a page of items, reading the actors' profiles in one BatchGetItem (≤ 100 ids: the page size bound). */
export async function toNotificationResponses(
  items: readonly NotificationItem[],
): Promise<NotificationResponse[]> {
  const actorIds = items.flatMap((item) => (item.actor_id === null ? [] : [item.actor_id]));
  const actors = actorIds.length > 0 ? await findUsersByIds(actorIds) : new Map<number, UserItem>();
  return items.map((item) => toNotificationResponse(item, actors));
}
