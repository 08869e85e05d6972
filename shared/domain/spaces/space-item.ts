import * as v from 'valibot';
import { indexEntry } from '../../db/partition.ts';
import {
  memberSort,
  membershipJoinSort,
  membershipKey,
  spaceKey,
  spaceMembersWithRole,
  spaceSlugGuardKey,
  spaceStatsKey,
  userMemberships,
} from '../../db/keys/spaces.ts';
import { SPACE_ROLES } from '../../vocabulary/roles.ts';
import {
  MEMBERSHIP_STATUSES,
  SPACE_PRIVACIES,
  SPACE_STATUSES,
  SPACE_TYPES,
} from '../../vocabulary/spaces.ts';

export type { SpaceRole } from '../../vocabulary/roles.ts';
export type { MembershipStatus, SpacePrivacy, SpaceStatus, SpaceType } from '../../vocabulary/spaces.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * A space or a course as stored (`SPACE#<id>` / `SPACE`); courses are spaces of type `course` and add the
 * course-only fields (their settings are CourseSettings, see shared/domain/courses/course-item.ts).
 */
export const SpaceItemSchema = v.object({
  id: integer,
  title: v.string(),
  slug: v.string(),
  description: v.string(),
  /** Markdown source rendered on write, like every `message`. */
  description_rendered: v.string(),
  logo: v.string(),
  cover_photo: v.string(),
  created_by: integer,
  parent_id: v.nullable(integer),
  privacy: v.picklist(SPACE_PRIVACIES),
  serial: integer,
  status: v.picklist(SPACE_STATUSES),
  type: v.picklist(SPACE_TYPES),
  settings: v.record(v.string(), v.unknown()),
  created_at: v.string(),
  updated_at: v.string(),
  course_type: v.optional(v.string()),
  lockscreen: v.optional(v.array(v.record(v.string(), v.unknown()))),
  category_ids: v.optional(v.array(v.record(v.string(), v.unknown()))),
});
export type SpaceItem = v.InferOutput<typeof SpaceItemSchema>;

export const MembershipItemSchema = v.object({
  space_id: integer,
  user_id: integer,
  role: v.picklist(SPACE_ROLES),
  status: v.picklist(MEMBERSHIP_STATUSES),
  created_at: v.string(),
  /** Courses: the lessons the student has completed (number set, written by lesson completions). */
  completed_lessons: v.optional(v.set(integer)),
});
export type MembershipItem = v.InferOutput<typeof MembershipItemSchema>;

/**
 * Aggregates of a space; courses add the CourseStats counters on the same item. Its `posts_count` is a sharded
 * aggregate of its own (`spacePostCounts`), moved by the feed writes.
 */
export interface SpaceStats {
  members_count: number;
}

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

/** Listed among the user's spaces only while active, so pending requests never list as memberships. */
export const storedMembership = (membership: MembershipItem) => ({
  ...membershipKey(membership.space_id, membership.user_id),
  entity: 'membership',
  ...membership,
  ...(membership.status === 'active'
    ? indexEntry(
        userMemberships(membership.user_id),
        membershipJoinSort(membership.created_at, membership.space_id),
      )
    : {}),
  ...indexEntry(spaceMembersWithRole(membership.space_id, membership.role), memberSort(membership.user_id)),
});

export const storedSpaceStats = (spaceId: number, stats: SpaceStats & Record<string, number>) => ({
  ...spaceStatsKey(spaceId),
  entity: 'space_stats',
  space_id: spaceId,
  ...stats,
});
