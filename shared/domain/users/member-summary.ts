import { MEMBER_SOCIAL_KEYS, type MemberSocialKey } from '../../vocabulary/profiles.ts';
import { toIsoDateTime } from '../dates.ts';
import type { UserItem } from './user-item.ts';

/** The member summary the contract calls `xprofile`, used in notification lists, quiz results and feeds. */
export interface MemberSummary {
  user_id: number;
  total_points: number;
  is_verified: number;
  status: string;
  display_name: string;
  username: string;
  avatar: string;
  created_at: string;
  short_description: string;
  meta: {
    website: string;
    cover_photo: string;
    social_links: Record<MemberSocialKey, string>;
    badge_slug: string[];
  };
  /** No badge system yet: always null, declared nullable so clients keep the field. */
  badge: null;
}

/**
 * A member's timestamps as every response renders them (a profile, every `xprofile`): ISO 8601
 * `YYYY-MM-DDTHH:MM:SS` UTC, the contract's format for profiles. Every mapper that shows one of them takes it from
 * here, so the same member reads the same in every response (issue 21 item 17).
 */
export interface MemberTimestamps {
  created_at: string;
  updated_at: string;
  last_activity: string;
}

export const toMemberTimestamps = (user: UserItem): MemberTimestamps => ({
  created_at: toIsoDateTime(user.created_at),
  updated_at: toIsoDateTime(user.updated_at),
  last_activity: toIsoDateTime(user.last_activity),
});

/** The contract's member summary (`xprofile`) of a user. */
export function toMemberSummary(user: UserItem): MemberSummary {
  return {
    user_id: user.id,
    total_points: user.total_points,
    is_verified: user.is_verified,
    status: user.status,
    display_name: user.display_name,
    username: user.username,
    avatar: user.avatar,
    created_at: toMemberTimestamps(user).created_at,
    short_description: user.short_description,
    meta: {
      website: user.website,
      cover_photo: user.cover_photo,
      social_links: Object.fromEntries(
        MEMBER_SOCIAL_KEYS.map((key) => [key, user.social_links[key] ?? '']),
      ) as Record<MemberSocialKey, string>,
      badge_slug: user.badge_slugs,
    },
    badge: null,
  };
}
