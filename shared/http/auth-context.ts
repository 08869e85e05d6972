import type { Authentication, Caller } from '../domain/auth/index.ts';
import {
  COMMUNITY_ROLES,
  type CommunityRole,
  HOST_ROLES,
  type HostRole,
  PROFILE_STATUSES,
  type ProfileStatus,
} from '../vocabulary/roles.ts';

/**
 * The authorizer → handler hand-off. API Gateway passes simple-response context values through as
 * `requestContext.authorizer.lambda`; they are kept to strings and numbers so they survive any transport.
 */
export interface AuthorizerContext {
  readonly state: Authentication['state'];
  readonly userId?: number;
  readonly username?: string;
  readonly hostRole?: string;
  /** Comma-separated community roles. */
  readonly roles?: string;
  readonly status?: string;
}

export function toAuthorizerContext(authentication: Authentication): AuthorizerContext {
  if (
    authentication.state === 'anonymous' ||
    authentication.state === 'invalid' ||
    authentication.state === 'unavailable'
  ) {
    return { state: authentication.state };
  }
  const { caller } = authentication;
  return {
    state: authentication.state,
    userId: caller.id,
    username: caller.username,
    hostRole: caller.hostRole,
    roles: caller.communityRoles.join(','),
    status: caller.status,
  };
}

const pick = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  allowed.find((candidate) => candidate === value);

/** Reads the authentication back from an event's authorizer context; anything malformed counts as anonymous. */
export function authenticationFromContext(context: Record<string, unknown> | undefined): Authentication {
  const state = context?.state;
  if (state === 'invalid') return { state: 'invalid' };
  if (state === 'unavailable') return { state: 'unavailable' };
  if (state !== 'authenticated' && state !== 'inactive') return { state: 'anonymous' };
  const id = Number(context?.userId);
  const hostRole = pick<HostRole>(HOST_ROLES, context?.hostRole);
  const status = pick<ProfileStatus>(PROFILE_STATUSES, context?.status);
  if (!Number.isInteger(id) || id < 1 || !hostRole || !status) return { state: 'anonymous' };
  const communityRoles = String(context?.roles ?? '')
    .split(',')
    .flatMap((role) => pick<CommunityRole>(COMMUNITY_ROLES, role) ?? []);
  const caller: Caller = { id, username: String(context?.username ?? ''), hostRole, communityRoles, status };
  return { state, caller };
}
