import { toSqlDateTime } from '../dates.ts';
import type { UserItem } from './user-item.ts';

/**
 * The host (WordPress-style) user summary: a course's `owner`, an invitation's inviter. `user_email` only when the
 * caller may see it (`showEmail`), else null: administering a course or inviting does not by itself allow reading
 * members' addresses.
 */
export interface HostUserSummary {
  ID: number;
  display_name: string;
  photo: string;
  user_email: string | null;
  user_login: string;
  user_nicename: string;
  user_registered: string;
  user_status: string;
  user_url: string;
}

export const toHostUserSummary = (user: UserItem, showEmail: boolean): HostUserSummary => ({
  ID: user.id,
  display_name: user.display_name,
  photo: user.avatar,
  user_email: showEmail ? user.email : null,
  user_login: user.username,
  user_nicename: user.username,
  user_registered: toSqlDateTime(user.created_at),
  user_status: user.status,
  user_url: user.website,
});
