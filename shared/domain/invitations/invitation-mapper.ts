import { env } from '../../config/env.ts';
import { toSqlDateTime } from '../dates.ts';
import {
  DEFAULT_SPACE_SETTINGS,
  type SpaceItem,
  type SpaceSettings,
  toSpaceSummary,
} from '../spaces/index.ts';
import { toHostUserSummary, toMemberSummary, toMemberTimestamps, type UserItem } from '../users/index.ts';
import type { InvitationItem } from './invitation-item.ts';

/**
 * The contract's Invitation. Its own timestamps are `YYYY-MM-DD HH:MM:SS` UTC; the space and the inviter's
 * `xprofile` are summaries, rendered by their one mapper each (ISO 8601), as in every other response.
 * `message` is the invited address (as on the original platform); the token is never part of any answer.
 */
export function toInvitation(invitation: InvitationItem, space: SpaceItem, inviter: UserItem) {
  return {
    id: invitation.id,
    user_id: invitation.inviter_id,
    post_id: invitation.space_id,
    created_at: toSqlDateTime(invitation.created_at),
    updated_at: toSqlDateTime(invitation.updated_at),
    message: invitation.email,
    message_rendered: escapeHtml(invitation.email),
    meta: { invitee_name: invitation.invitee_name },
    reactions_count: invitation.emails_sent,
    space: toInvitationSpace(space),
    status: invitation.status,
    type: 'invitation' as const,
    user: toHostUserSummary(inviter, true),
    xprofile: toInviterProfile(inviter),
  };
}
export type Invitation = ReturnType<typeof toInvitation>;

/** The space with every settings key the invitation response carries (stored values over the defaults). */
function toInvitationSpace(space: SpaceItem) {
  const stored = space.settings as Partial<SpaceSettings>;
  const settings = Object.fromEntries(
    Object.entries(DEFAULT_SPACE_SETTINGS).map(([key, fallback]) => [
      key,
      stored[key as keyof SpaceSettings] ?? fallback,
    ]),
  ) as unknown as SpaceSettings;
  return {
    ...toSpaceSummary(space),
    settings,
  };
}

function toInviterProfile(user: UserItem) {
  const summary = toMemberSummary(user);
  const timestamps = toMemberTimestamps(user);
  return {
    avatar: user.avatar,
    badge: null,
    created_at: timestamps.created_at,
    display_name: user.display_name,
    id: user.id,
    is_verified: user.is_verified,
    last_activity: timestamps.last_activity,
    meta: summary.meta,
    permalink: `${env().PUBLIC_BASE_URL.replace(/\/+$/, '')}/profile/${user.username}`,
    short_description: user.short_description,
    status: user.status,
    total_points: user.total_points,
    updated_at: timestamps.updated_at,
    user_id: user.id,
    username: user.username,
  };
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
