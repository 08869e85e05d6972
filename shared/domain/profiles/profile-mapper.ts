import { type Caller, isOwnerOrModerator, type ProfileStatus } from '../auth/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { toMemberTimestamps } from '../users/index.ts';
import { compilationScore } from './profile-points.ts';
import type { ProfileRecord } from './profile-repository.ts';

export interface ProfileNav {
  slug: string;
  title: string;
  url: string;
  route: { name: string };
}

/** The contract's `profile` object (community-api.md "Profile"); private fields are null for other callers. */
export interface ProfileResponse {
  user_id: number;
  username: string;
  display_name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  avatar: string;
  cover_photo: string;
  short_description: string;
  short_description_rendered: string;
  location: string;
  website: string;
  social_links: Record<string, string>;
  status: ProfileStatus;
  is_verified: number;
  badge_slugs: string[];
  total_points: number;
  compilation_score: number;
  followers_count: number;
  followings_count: number;
  created_at: string;
  last_activity: string;
  can_change_username: boolean | null;
  can_change_email: boolean | null;
  canViewUserSpaces: boolean;
  profile_navs: ProfileNav[];
  profile_nav_actions: never[];
}

/** The profile's sections as client routes (relative to the site, like mention links `/u/<username>`). */
const NAVS = [
  ['posts', 'Posts', '', 'user_profile'],
  ['spaces', 'Spaces', '/spaces', 'user_spaces'],
  ['comments', 'Comments', '/comments', 'user_comments'],
  ['media', 'Media', '/media', 'user_media'],
  ['followers', 'Followers', '/followers', 'user_followers'],
  ['followings', 'Following', '/followings', 'user_followings'],
] as const;

export function toProfile(
  record: ProfileRecord,
  caller: Caller,
  canViewUserSpaces: boolean,
): ProfileResponse {
  const { user } = record;
  const privileged = isOwnerOrModerator(caller, user.id);
  const timestamps = toMemberTimestamps(user);
  // Users created before a bio was rendered on write (operator CLI, import) carry an empty rendering.
  const rendered =
    user.short_description_rendered === '' && user.short_description !== ''
      ? renderMarkdown(user.short_description)
      : user.short_description_rendered;
  return {
    user_id: user.id,
    username: user.username,
    display_name: user.display_name,
    first_name: privileged ? user.first_name : null,
    last_name: privileged ? user.last_name : null,
    email: privileged ? user.email : null,
    avatar: user.avatar,
    cover_photo: user.cover_photo,
    short_description: user.short_description,
    short_description_rendered: rendered,
    location: user.location,
    website: user.website,
    social_links: { ...user.social_links },
    status: user.status,
    is_verified: user.is_verified,
    badge_slugs: user.badge_slugs,
    total_points: user.total_points,
    compilation_score: compilationScore(user),
    followers_count: user.followers_count,
    followings_count: user.followings_count,
    created_at: timestamps.created_at,
    last_activity: timestamps.last_activity,
    // Usernames and e-mail addresses cannot be changed through the API: false for those who may know, else null.
    can_change_username: privileged ? false : null,
    can_change_email: privileged ? false : null,
    canViewUserSpaces,
    profile_navs: NAVS.map(([slug, title, path, route]) => ({
      slug,
      title,
      url: `/u/${user.username}${path}`,
      route: { name: route },
    })),
    profile_nav_actions: [],
  };
}
