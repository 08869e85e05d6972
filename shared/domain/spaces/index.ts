/** The spaces domain's public surface: what other domains may use (README, import rules). */
export * from './space-item.ts';
export { findSpaceStaffIds, membershipJoinActions } from './join-space.ts';
export {
  findActiveMembershipSpaceIds,
  findActiveMemberships,
  findMembership,
  findMembershipsOfUsers,
  findMemberships,
  findSpaceById,
  findSpaceStats,
  findSpaceWithMembership,
  findSpacesByIds,
} from './space-repository.ts';
export { type SpaceCore, toSpaceCore } from './space-mapper.ts';
export { spaceTextRewriteAction } from './space-text-rewrite-action.ts';
