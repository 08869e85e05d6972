/**
 * Roles and account states (decisions.md, "Users, profiles and roles"). Plain lists: the domain's permission rules
 * and the contracts' schemas both build on them.
 */

/** Global community roles. */
export const COMMUNITY_ROLES = ['admin', 'moderator', 'course_admin', 'course_creator'] as const;
export type CommunityRole = (typeof COMMUNITY_ROLES)[number];

/** Host platform role: `administrator` carries `manage_options`, `list_users` and super admin. */
export const HOST_ROLES = ['administrator', 'member'] as const;
export type HostRole = (typeof HOST_ROLES)[number];
/** Display labels of the host roles (`user_roles` of GET /admin/general). */
export const HOST_ROLE_LABELS: Readonly<Record<HostRole, string>> = {
  administrator: 'Administrator',
  member: 'Member',
};

/** Profile status; only `active` accounts may act. */
export const PROFILE_STATUSES = ['active', 'suspended', 'banned'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

/** Roles inside one space; `student` is a course enrolment. */
export const SPACE_ROLES = ['admin', 'moderator', 'member', 'student'] as const;
export type SpaceRole = (typeof SPACE_ROLES)[number];
