import type { UserItem } from '../users/index.ts';

/**
 * The profile's scores (README "Profile scores"). `total_points` is a counter on the user item that the feed and
 * comment writes move in their own transactions (FEED_POINTS per published feed, COMMENT_POINTS per published
 * comment on a feed; see shared/domain/feeds). `compilation_score` is computed here from the user item's fields.
 */

/**
 * `compilation_score`: how complete the profile is, 0..100 in steps of 10: one step for each of display name
 * (other than the username), first name, last name, bio, avatar, cover photo, website, location, at least one
 * social link, and a verified profile. Derived from the user item alone, so it is exact whenever the fields are.
 */
export function compilationScore(user: UserItem): number {
  const filled = [
    user.display_name !== '' && user.display_name !== user.username,
    user.first_name !== '',
    user.last_name !== '',
    user.short_description !== '',
    user.avatar !== '',
    user.cover_photo !== '',
    user.website !== '',
    user.location !== '',
    Object.values(user.social_links).some((link) => link !== ''),
    user.is_verified > 0,
  ];
  return filled.filter(Boolean).length * 10;
}
