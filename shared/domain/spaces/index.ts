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
  membershipRead,
  spaceRead,
  spacesWithStatsAndMembershipsRead,
} from './space-repository.ts';
export { type SpaceCore, type SpaceSummary, toSpaceCore, toSpaceSummary } from './space-mapper.ts';
export { spaceTextRewriteAction } from './space-text-rewrite-action.ts';
