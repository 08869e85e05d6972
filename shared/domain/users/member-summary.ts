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
    created_at: toIsoDateTime(user.created_at),
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
