import type { CommunityRole, HostRole, ProfileStatus } from '../../vocabulary/roles.ts';

export type { CommunityRole, HostRole, ProfileStatus };

/**
 * The authenticated caller as every use case sees it. It is resolved once by the authorizer and travels in the
 * authorizer context; use cases never re-read credentials.
 */
export interface Caller {
  readonly id: number;
  readonly username: string;
  readonly hostRole: HostRole;
  readonly communityRoles: readonly CommunityRole[];
  readonly status: ProfileStatus;
}
