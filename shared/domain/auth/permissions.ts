import type { SpaceRole } from '../../vocabulary/roles.ts';
import type { Caller } from './caller.ts';

export type { SpaceRole };

/**
 * Every permission decision of the product, in one module (decisions.md, "Users, profiles and roles"; contract,
 * "Authentication" 3). Pure functions of the caller and, for space decisions, the caller's membership; tested
 * as a matrix in test/unit/permissions.test.ts.
 */

/** The caller's membership of one space or course, as stored (`pending` members are not members yet). */
export interface Membership {
  readonly role: SpaceRole;
  readonly status: 'active' | 'pending';
}

/** Host capabilities: a host administrator has `manage_options`, `list_users` and is super admin. */
export const hasManageOptions = (caller: Caller): boolean => caller.hostRole === 'administrator';
export const hasListUsers = (caller: Caller): boolean => caller.hostRole === 'administrator';
export const isHostSuperAdmin = (caller: Caller): boolean => caller.hostRole === 'administrator';

/** Community admin: the global `admin` role; host administrators are community admins everywhere. */
export const isCommunityAdmin = (caller: Caller): boolean =>
  hasManageOptions(caller) || caller.communityRoles.includes('admin');

/** Community moderator: a global admin or moderator. */
export const isCommunityModerator = (caller: Caller): boolean =>
  isCommunityAdmin(caller) || caller.communityRoles.includes('moderator');

/** The contract's "Administrator" level: topics admin, quiz admin, migrations. */
export const isAdministrator = (caller: Caller): boolean => isCommunityAdmin(caller);

/** `GET /admin/general`: community-admin permission or a host super admin. */
export const canReadGeneralSettings = (caller: Caller): boolean =>
  isCommunityAdmin(caller) || isHostSuperAdmin(caller);

/**
 * The caller's effective role in a space: a global admin acts as space admin everywhere, a global moderator at
 * least as space moderator; otherwise the active membership's role; `undefined` for non-members.
 */
export function effectiveSpaceRole(
  caller: Caller,
  membership: Membership | undefined,
): SpaceRole | undefined {
  if (isCommunityAdmin(caller)) return 'admin';
  const own = membership?.status === 'active' ? membership.role : undefined;
  if (own === 'admin') return 'admin';
  if (caller.communityRoles.includes('moderator')) return 'moderator';
  return own;
}

/** `community_moderator` in a space: global admin or moderator, or space admin or moderator. */
export function isSpaceModerator(caller: Caller, membership: Membership | undefined): boolean {
  const role = effectiveSpaceRole(caller, membership);
  return role === 'admin' || role === 'moderator';
}

/** `can_add_member` in a space: global admin, or space admin. */
export const canAddMember = (caller: Caller, membership: Membership | undefined): boolean =>
  effectiveSpaceRole(caller, membership) === 'admin';

/** An active member of the space in any role (students included). */
export const isSpaceMember = (caller: Caller, membership: Membership | undefined): boolean =>
  effectiveSpaceRole(caller, membership) !== undefined;

/**
 * Course admin of a course: the course's own admins (space role `admin` in the course), community admins,
 * holders of the global `course_admin` role, and host users with `manage_options`.
 */
export const isCourseAdmin = (caller: Caller, courseMembership: Membership | undefined): boolean =>
  hasManageOptions(caller) ||
  isCommunityAdmin(caller) ||
  caller.communityRoles.includes('course_admin') ||
  (courseMembership?.status === 'active' && courseMembership.role === 'admin');

/** Quiz submission: an active student (or any active member) of the course, or one of its admins. */
export const isEnrolled = (caller: Caller, courseMembership: Membership | undefined): boolean =>
  courseMembership?.status === 'active' || isCourseAdmin(caller, courseMembership);

/**
 * Moderating a course's lesson comments (their pending ones under content moderation): its admins and those who act
 * as course admins everywhere, and the course's moderators (space moderators of the course, global moderators).
 */
export const canModerateCourseComments = (
  caller: Caller,
  courseMembership: Membership | undefined,
): boolean => isCourseAdmin(caller, courseMembership) || isSpaceModerator(caller, courseMembership);

/** Own-account rules: only the owner updates a profile and sees their notifications. */
export const isOwner = (caller: Caller, userId: number): boolean => caller.id === userId;

/** Owner or community moderator: private profile fields, media deletion. */
export const isOwnerOrModerator = (caller: Caller, userId: number): boolean =>
  isOwner(caller, userId) || isCommunityModerator(caller);

/** `user_space_visibility` gate for `GET /profile/{username}/spaces`. */
export type SpaceVisibility = 'everybody' | 'logged_in' | 'admin_only';
export const canViewProfileSpaces = (
  caller: Caller,
  profileUserId: number,
  visibility: SpaceVisibility,
): boolean => visibility !== 'admin_only' || isOwnerOrModerator(caller, profileUserId);

// ---- Feeds (decisions.md "Topics and feeds") -------------------------------------------------------------------

/** What the posting rule needs of a space: whether only its admins and moderators post (`restricted_post_only`). */
export interface FeedSpace {
  readonly restrictedPostOnly: boolean;
}

/** What the feed rules need of a feed. */
export interface FeedAccess {
  readonly authorId: number;
  readonly published: boolean;
  /** `members`: a private or secret space's feed. */
  readonly visibility: 'public' | 'members';
}

/**
 * Posting into a space: an active member (global admins and moderators count as members everywhere), and in a
 * `restricted_post_only` space only its admins and moderators. Anyone may post to the global feed (no space).
 */
export const canPostInSpace = (
  caller: Caller,
  space: FeedSpace,
  membership: Membership | undefined,
): boolean =>
  isSpaceMember(caller, membership) && (!space.restrictedPostOnly || isSpaceModerator(caller, membership));

/**
 * Seeing a feed: a private or secret space's feeds only for its members; a feed that is not published only for
 * its author and for moderators (community moderators, or the space's admins and moderators).
 */
export function canSeeFeed(caller: Caller, feed: FeedAccess, membership: Membership | undefined): boolean {
  if (feed.visibility === 'members' && !isSpaceMember(caller, membership)) return false;
  return feed.published || isOwner(caller, feed.authorId) || isSpaceModerator(caller, membership);
}

/** Editing or deleting a feed: its author, a moderator of its space, or a community moderator. */
export const canManageFeed = (
  caller: Caller,
  feed: FeedAccess,
  membership: Membership | undefined,
): boolean => isOwner(caller, feed.authorId) || isSpaceModerator(caller, membership);

/**
 * Listing the feeds of every space without a visibility filter, or another user's unpublished feeds: community
 * moderators (global admins act as members of every space).
 */
export const canSeeAllFeeds = (caller: Caller): boolean => isCommunityModerator(caller);
