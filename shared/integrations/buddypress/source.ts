/**
 * The BuddyPress source as the migration sees it: row shapes and the reads it needs, behind one interface so an
 * export-bundle or REST adapter can stand in for the MySQL one (mysql-source.ts). Every list is a keyset page or
 * a bounded id range on a primary key: the cost of a read grows with the page, never with the table.
 *
 * Dates are the source's GMT wall-clock strings (`YYYY-MM-DD HH:MM:SS`); `0000-00-00 00:00:00` means unknown.
 */
export interface GroupRow {
  readonly id: number;
  readonly creatorId: number;
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  readonly status: string;
  readonly dateCreated: string;
}

/** One confirmed, unbanned membership: the lowest row id of its (group, user) pair, both of which exist. */
export interface MembershipRow {
  readonly id: number;
  readonly groupId: number;
  readonly userId: number;
  readonly isAdmin: boolean;
  readonly isMod: boolean;
  readonly dateModified: string;
}

export interface ActivityRow {
  readonly id: number;
  readonly userId: number;
  readonly component: string;
  readonly type: string;
  readonly content: string;
  /** Root activity of a comment; group id of a group update. */
  readonly itemId: number;
  /** Direct parent of a comment. */
  readonly secondaryItemId: number;
  readonly dateRecorded: string;
  readonly isSpam: boolean;
  readonly mpttLeft: number;
}

export interface UserRow {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  readonly registered: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly description: string;
}

/** The source tables whose row ids targets are mapped from (id spaces). */
export type SourceTable = 'users' | 'groups' | 'activity';

/** What is migrated per item; `comments` rides with `activities`. */
export type SourceCollection = 'groups' | 'members' | 'activities';

export interface SourceCounts {
  readonly groups: number;
  readonly members: number;
  readonly activities: number;
  /** Non-spam comments under migrating roots (an estimate: spam ancestors are only seen while walking trees). */
  readonly comments: number;
}

export interface BuddypressSource {
  /** True when the BuddyPress tables this migration reads exist. */
  isInstalled(): Promise<boolean>;
  counts(): Promise<SourceCounts>;
  /**
   * The id closing the next chunk: of the rows of `collection` with id > `afterId`, the `size`-th one (or the last
   * one), taking only rows whose id is less than `maxSpan` past the first of them; undefined when none is left.
   * Answers also how many rows that chunk holds.
   */
  nextChunkEnd(
    collection: SourceCollection,
    afterId: number,
    size: number,
    maxSpan: number,
  ): Promise<{ upTo: number; rows: number } | undefined>;
  /** The smallest and largest row id of a table (undefined when it is empty): what an id space must cover. */
  idRange(table: SourceTable): Promise<{ min: number; max: number } | undefined>;
  groupsInRange(afterId: number, upTo: number): Promise<GroupRow[]>;
  membershipsInRange(afterId: number, upTo: number): Promise<MembershipRow[]>;
  /** Migrating `activity_update` roots: not spam, and in a group or not hidden sitewide. */
  rootActivitiesInRange(afterId: number, upTo: number): Promise<ActivityRow[]>;
  /** Every `activity_comment` under these roots (spam included: its descendants must be left out too). */
  commentsOfRoots(rootIds: readonly number[]): Promise<ActivityRow[]>;
  usersByIds(ids: readonly number[]): Promise<UserRow[]>;
  close(): Promise<void>;
}

/** BuddyPress's unknown date, and any source date, as a stored UTC ISO timestamp (undefined when unknown). */
export function sourceDateToIso(value: string): string | undefined {
  if (!value || value.startsWith('0000')) return undefined;
  const time = Date.parse(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
