import type { CommunityRole, HostRole, ProfileStatus } from '../auth/caller.ts';

/** A user as stored (`USER#<id>` / `USER`). Mappers turn it into the contract's shapes; it never leaves as is. */
export interface UserItem {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly display_name: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly status: ProfileStatus;
  readonly host_role: HostRole;
  readonly community_roles: CommunityRole[];
  readonly avatar: string;
  readonly cover_photo: string;
  /** Markdown source; `short_description_rendered` is derived on write. */
  readonly short_description: string;
  readonly short_description_rendered: string;
  readonly website: string;
  readonly location: string;
  readonly social_links: Record<string, string>;
  readonly badge_slugs: string[];
  readonly is_verified: number;
  readonly total_points: number;
  readonly followers_count: number;
  readonly followings_count: number;
  /** UTC ISO timestamps. */
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_activity: string;
}

/** The social networks the member summary always names (empty string when the member has none). */
export const MEMBER_SOCIAL_KEYS = ['twitter', 'youtube', 'linkedin', 'fb', 'instagram'] as const;
export type MemberSocialKey = (typeof MEMBER_SOCIAL_KEYS)[number];

/** The member summary the contract calls `xprofile`, used in notification and quiz lists. */
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
  badge: null;
}
