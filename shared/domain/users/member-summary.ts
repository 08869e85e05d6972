import { toIsoDateTime } from '../dates.ts';
import { MEMBER_SOCIAL_KEYS, type MemberSocialKey, type MemberSummary, type UserItem } from './user-item.ts';

/** The contract's member summary (`xprofile`) of a user, as notification lists and quiz results carry it. */
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
        MEMBER_SOCIAL_KEYS.map((key) => [key, user.social_links?.[key] ?? '']),
      ) as Record<MemberSocialKey, string>,
      badge_slug: user.badge_slugs ?? [],
    },
    badge: null,
  };
}
