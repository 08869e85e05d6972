import {
  membershipByRoleIndex,
  membershipByUserIndex,
  membershipKey,
  spaceKey,
  spaceSlugGuardKey,
  spaceStatsKey,
} from '../../db/keys.ts';

/** Space vocabularies (decisions.md "Invitations, course admin, search, settings" and "Users, profiles and roles"). */
export const SPACE_PRIVACIES = ['public', 'private', 'secret'] as const;
export type SpacePrivacy = (typeof SPACE_PRIVACIES)[number];
export const SPACE_STATUSES = ['published', 'draft', 'archived'] as const;
export type SpaceStatus = (typeof SPACE_STATUSES)[number];
export const SPACE_ROLES = ['admin', 'moderator', 'member', 'student'] as const;
export type SpaceRole = (typeof SPACE_ROLES)[number];
export const SPACE_TYPES = ['community', 'course'] as const;
export type SpaceType = (typeof SPACE_TYPES)[number];
export const MEMBERSHIP_STATUSES = ['active', 'pending'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const SPACE_TITLE_MAX_LENGTH = 192;

export interface SpaceLink {
  slug: string;
  title: string;
  emoji?: string;
  enabled?: 'yes' | 'no';
  new_tab?: 'yes' | 'no';
  permalink?: string;
}

/**
 * The contract's space `settings` keys (`show_fetured_image` is spelled so by the contract) plus the keys the
 * invitation response also carries. Switches are `yes`/`no` strings, as on the original platform.
 */
export interface SpaceSettings {
  can_request_join: 'yes' | 'no';
  custom_lock_screen: 'yes' | 'no';
  emoji: string;
  hide_members_count: 'yes' | 'no';
  layout_style: string;
  links: SpaceLink[];
  members_page_status: string;
  og_image: string;
  restricted_post_only: 'yes' | 'no';
  shape_svg: string;
  show_fetured_image: 'yes' | 'no';
  show_sidebar: 'yes' | 'no';
  topic_required: 'yes' | 'no';
  default_comment_sort_by: string;
  default_post_sort_by: string;
  disable_layout_style: 'yes' | 'no';
  disable_post_sort_by: 'yes' | 'no';
  document_access: string;
  document_library: 'yes' | 'no';
  document_upload: string;
  media_access: string;
  media_gallery: 'yes' | 'no';
  onboard_redirect_url: string;
  show_paywalls: 'yes' | 'no';
}

export const DEFAULT_SPACE_SETTINGS: SpaceSettings = {
  can_request_join: 'no',
  custom_lock_screen: 'no',
  emoji: '',
  hide_members_count: 'no',
  layout_style: 'timeline',
  links: [],
  members_page_status: 'members_only',
  og_image: '',
  restricted_post_only: 'no',
  shape_svg: '',
  show_fetured_image: 'yes',
  show_sidebar: 'yes',
  topic_required: 'no',
  default_comment_sort_by: 'oldest',
  default_post_sort_by: 'latest',
  disable_layout_style: 'no',
  disable_post_sort_by: 'no',
  document_access: 'members_only',
  document_library: 'no',
  document_upload: 'admin_only',
  media_access: 'members_only',
  media_gallery: 'no',
  onboard_redirect_url: '',
  show_paywalls: 'no',
};

/**
 * A space or a course as stored (`SPACE#<id>` / `SPACE`); courses are spaces of type `course` and add the
 * course-only fields (their settings are CourseSettings, see shared/domain/courses/course-item.ts).
 */
export interface SpaceItem {
  id: number;
  title: string;
  slug: string;
  description: string;
  /** Markdown source rendered on write, like every `message`. */
  description_rendered: string;
  logo: string;
  cover_photo: string;
  created_by: number;
  parent_id: number | null;
  privacy: SpacePrivacy;
  serial: number;
  status: SpaceStatus;
  type: SpaceType;
  settings: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  course_type?: string;
  lockscreen?: Record<string, unknown>[];
  category_ids?: Record<string, unknown>[];
}

export interface MembershipItem {
  space_id: number;
  user_id: number;
  role: SpaceRole;
  status: MembershipStatus;
  created_at: string;
  /** Courses: the lessons the student has completed (number set, written by quiz passes). */
  completed_lessons?: Set<number>;
}

/** Aggregates of a space; courses add the CourseStats counters on the same item. */
export interface SpaceStats {
  members_count: number;
  posts_count: number;
}

/**
 * Feeds carry who may see them, so unfiltered lists can filter without reading the space: public spaces (and the
 * global feed) are visible to every user, private and secret ones to members.
 */
export const spaceVisibility = (privacy: SpacePrivacy | null): 'public' | 'members' =>
  privacy === null || privacy === 'public' ? 'public' : 'members';

export const storedSpace = (space: SpaceItem) => ({
  ...spaceKey(space.id),
  entity: space.type === 'course' ? 'course' : 'space',
  ...space,
});

export const storedSpaceSlugGuard = (slug: string, spaceId: number) => ({
  ...spaceSlugGuardKey(slug),
  entity: 'space_slug_guard',
  space_id: spaceId,
});

/** G1 (the user's spaces) only while active, so pending requests never list as memberships. */
export const storedMembership = (membership: MembershipItem) => ({
  ...membershipKey(membership.space_id, membership.user_id),
  entity: 'membership',
  ...membership,
  ...(membership.status === 'active'
    ? membershipByUserIndex(membership.user_id, membership.created_at, membership.space_id)
    : {}),
  ...membershipByRoleIndex(membership.space_id, membership.role, membership.user_id),
});

export const storedSpaceStats = (spaceId: number, stats: SpaceStats & Record<string, number>) => ({
  ...spaceStatsKey(spaceId),
  entity: 'space_stats',
  space_id: spaceId,
  ...stats,
});
