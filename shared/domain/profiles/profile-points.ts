import type { UserItem } from '../users/index.ts';

/**
 * The two scores of a profile, both documented in the profile contract and the README ("Profile scores"). Neither
 * counts anything at read time: they are arithmetic on counters and fields that writes maintain.
 *
 * `total_points`: 5 per published feed and 2 per published comment the member authored, read from the counters
 * every feed and comment write (and the import) moves in the same transaction on the member's stats item
 * (`feeds_published`, `comments_published`). Deleting the content takes its points back.
 */
export const POINTS_PER_FEED = 5;
export const POINTS_PER_COMMENT = 2;

export const totalPoints = (stats: Readonly<Record<string, number>>): number =>
  POINTS_PER_FEED * (stats.feeds_published ?? 0) + POINTS_PER_COMMENT * (stats.comments_published ?? 0);

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
