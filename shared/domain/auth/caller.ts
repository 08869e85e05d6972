/**
 * The authenticated caller as every use case sees it. It is resolved once by the authorizer and travels in the
 * authorizer context; use cases never re-read credentials.
 */
export const COMMUNITY_ROLES = ['admin', 'moderator', 'course_admin', 'course_creator'] as const;
export type CommunityRole = (typeof COMMUNITY_ROLES)[number];

/** Host platform role: `administrator` carries `manage_options`, `list_users` and super admin. */
export const HOST_ROLES = ['administrator', 'member'] as const;
export type HostRole = (typeof HOST_ROLES)[number];

export const PROFILE_STATUSES = ['active', 'suspended', 'banned'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export interface Caller {
  readonly id: number;
  readonly username: string;
  readonly hostRole: HostRole;
  readonly communityRoles: readonly CommunityRole[];
  readonly status: ProfileStatus;
}
