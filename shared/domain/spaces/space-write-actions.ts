import { spaceStatsKey } from '../../db/keys/spaces.ts';
import type { ItemKey } from '../../db/partition.ts';
import {
  type MembershipItem,
  type SpaceItem,
  storedMembership,
  storedSpace,
  storedSpaceSlugGuard,
  storedSpaceStats,
} from './space-item.ts';

/**
 * The writes of spaces' items that bulk writers (the import, the migration) compose into their own plans: a space
 * created whole and a membership. Whoever writes them never builds a space, membership or stats item itself.
 */

/** A stored item ready to put: its table key and attributes. */
type Stored = ItemKey & Record<string, unknown>;

export interface CreatedSpaceWrites {
  /** The slug guard: the space's slug is unique among spaces and courses. */
  readonly guard: Stored;
  readonly space: Stored;
  /** The stats item, its counters (`members_count` and the given ones) from 0, moved by each membership. */
  readonly stats: Stored;
}

/**
 * What a space (or a course) created whole writes: its slug guard, its item and its stats item with `counters`
 * (a course's counters; `members_count` always) at their starting values.
 */
export const createdSpaceWrites = (
  space: SpaceItem,
  counters: Readonly<Record<string, number>> = {},
): CreatedSpaceWrites => ({
  guard: storedSpaceSlugGuard(space.slug, space.id),
  space: storedSpace(space),
  stats: storedSpaceStats(space.id, { members_count: 0, ...counters }),
});

export interface MembershipWrites {
  readonly item: Stored;
  /**
   * What a new active membership adds to its space's stats item (`members_count`, and `students_count` for a
   * course's student), with the attributes that item is created with if absent.
   */
  readonly joined: {
    readonly key: ItemKey;
    readonly deltas: Readonly<Record<string, number>>;
    readonly identity: Readonly<Record<string, unknown>>;
  };
}

/**
 * A membership as written (listed among its user's spaces while active, and among its space's members by role), and
 * the count a new active one moves on its space, as joining through the API moves it.
 */
export const membershipWrites = (membership: MembershipItem): MembershipWrites => ({
  item: storedMembership(membership),
  joined: {
    key: spaceStatsKey(membership.space_id),
    deltas: { members_count: 1, ...(membership.role === 'student' ? { students_count: 1 } : {}) },
    identity: { entity: 'space_stats', space_id: membership.space_id },
  },
});
