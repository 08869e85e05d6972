/**
 * The spaces domain's public surface: what other domains may use (README, import rules). Use cases, read models,
 * lookups and the write actions others compose; never its repository or stored-item schemas
 * (test/unit/layering.test.ts).
 */
export type {
  MembershipItem,
  MembershipStatus,
  SpaceItem,
  SpacePrivacy,
  SpaceRole,
  SpaceStatus,
  SpaceType,
} from './space-item.ts';
export { DEFAULT_SPACE_SETTINGS, type SpaceLink, type SpaceSettings } from './space-settings.ts';
export { spaceVisibility } from './space-visibility.ts';
export { findSpaceStaffIds, membershipJoinActions } from './join-space.ts';
export {
  findActiveMembershipSpaceIds,
  findActiveMemberships,
  findMembership,
  findMembershipsOfUsers,
  findMembershipsWithRun,
  findMemberships,
  findSpaceById,
  findSpaceStats,
  findSpaceWithMembership,
  findSpacesByIds,
  type MembershipWithRun,
  membershipRead,
  spaceRead,
  spacesWithStatsAndMembershipsRead,
} from './space-lookups.ts';
export {
  type CreatedSpaceWrites,
  createdSpaceWrites,
  type MembershipWrites,
  membershipWrites,
} from './space-write-actions.ts';
export { type SpaceCore, type SpaceSummary, toSpaceCore, toSpaceSummary } from './space-mapper.ts';
export { spaceTextRewriteAction } from './space-text-rewrite-action.ts';
