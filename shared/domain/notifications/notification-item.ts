import type { NotificationType } from '../../vocabulary/notifications.ts';

export type { NotificationType };

/** A notification as stored (`NOTIF#<id>` / `NOTIF`, and its type copy). Mappers turn it into the contract shape. */
export interface NotificationItem {
  readonly id: number;
  readonly user_id: number;
  readonly type: NotificationType;
  readonly title: string;
  readonly message: string;
  readonly action_url: string;
  readonly is_read: boolean;
  readonly actor_id: number | null;
  readonly object_id: number | null;
  readonly object_type: string;
  /** UTC ISO timestamps. */
  readonly created_at: string;
  readonly read_at: string | null;
}

/** The recipient's maintained aggregates (notificationStatsKey). */
export interface NotificationStats {
  readonly total: number;
  readonly unread: number;
  readonly byType: Readonly<Record<string, { total: number; unread: number }>>;
}
