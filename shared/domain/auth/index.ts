/** The auth domain's public surface: what other domains may use (README, import rules). */
export type { Authentication } from './authenticate.ts';
export { authenticate } from './authenticate.ts';
export type { Caller, CommunityRole, HostRole, ProfileStatus } from './caller.ts';
export * from './permissions.ts';
export { revokeAppPasswords } from './revoke-app-passwords.ts';
export { revokeToken } from './revoke-token.ts';
export { type MemberStatusChange, setMemberStatus } from './set-member-status.ts';
