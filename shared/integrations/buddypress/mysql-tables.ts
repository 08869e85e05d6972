import type { SourceQuery } from './mysql-query.ts';
import type { ActivityRow, GroupRow, MembershipRow, UserRow } from './source.ts';

/**
 * One reader per BuddyPress table the migration maps, each a keyset range on `id` (or a list of ids) turned into
 * the row shapes of source.ts.
 */

/** Migrating roots: `activity_update`, not spam; group updates whatever `hide_sitewide` says (decisions.md). */
export const ROOT_FILTER =
  "a.type = 'activity_update' AND a.is_spam = 0 AND (a.component = 'groups' OR a.hide_sitewide = 0)";

/** One confirmed, unbanned membership per (group, user): the lowest row id, both of which exist. */
export const membershipFilter = (q: SourceQuery) => `m.is_confirmed = 1 AND m.is_banned = 0
    AND EXISTS (SELECT 1 FROM ${q.table('bp_groups')} g WHERE g.id = m.group_id)
    AND EXISTS (SELECT 1 FROM ${q.table('users')} u WHERE u.ID = m.user_id)
    AND NOT EXISTS (SELECT 1 FROM ${q.table('bp_groups_members')} d WHERE d.group_id = m.group_id
      AND d.user_id = m.user_id AND d.is_confirmed = 1 AND d.is_banned = 0 AND d.id < m.id)`;

export async function groupsInRange(q: SourceQuery, afterId: number, upTo: number): Promise<GroupRow[]> {
  const rows = await q.select<Record<string, unknown>>(
    `SELECT g.id, g.creator_id AS creatorId, g.name, g.slug, g.description, g.status,
       g.date_created AS dateCreated
     FROM ${q.table('bp_groups')} g WHERE g.id > ? AND g.id <= ? ORDER BY g.id`,
    [afterId, upTo],
  );
  return rows.map((row) => ({
    ...(row as unknown as GroupRow),
    id: Number(row.id),
    creatorId: Number(row.creatorId),
  }));
}

export async function membershipsInRange(
  q: SourceQuery,
  afterId: number,
  upTo: number,
): Promise<MembershipRow[]> {
  const rows = await q.select<Record<string, unknown>>(
    `SELECT m.id, m.group_id AS groupId, m.user_id AS userId, m.is_admin AS isAdmin, m.is_mod AS isMod,
       m.date_modified AS dateModified
     FROM ${q.table('bp_groups_members')} m WHERE ${membershipFilter(q)} AND m.id > ? AND m.id <= ? ORDER BY m.id`,
    [afterId, upTo],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    groupId: Number(row.groupId),
    userId: Number(row.userId),
    isAdmin: Number(row.isAdmin) === 1,
    isMod: Number(row.isMod) === 1,
    dateModified: String(row.dateModified),
  }));
}

const ACTIVITY_COLUMNS = `a.id, a.user_id AS userId, a.component, a.type, a.content, a.item_id AS itemId,
    COALESCE(a.secondary_item_id, 0) AS secondaryItemId, a.date_recorded AS dateRecorded,
    a.is_spam = 1 AS isSpam, a.mptt_left AS mpttLeft`;

const toActivity = (row: Record<string, unknown>): ActivityRow => ({
  ...(row as unknown as ActivityRow),
  id: Number(row.id),
  userId: Number(row.userId),
  itemId: Number(row.itemId),
  secondaryItemId: Number(row.secondaryItemId),
  isSpam: Number(row.isSpam) === 1,
  mpttLeft: Number(row.mpttLeft),
});

export async function rootActivitiesInRange(
  q: SourceQuery,
  afterId: number,
  upTo: number,
): Promise<ActivityRow[]> {
  const rows = await q.select<Record<string, unknown>>(
    `SELECT ${ACTIVITY_COLUMNS} FROM ${q.table('bp_activity')} a
     WHERE ${ROOT_FILTER} AND a.id > ? AND a.id <= ? ORDER BY a.id`,
    [afterId, upTo],
  );
  return rows.map(toActivity);
}

export async function commentsOfRoots(q: SourceQuery, rootIds: readonly number[]): Promise<ActivityRow[]> {
  if (rootIds.length === 0) return [];
  const rows = await q.select<Record<string, unknown>>(
    `SELECT ${ACTIVITY_COLUMNS} FROM ${q.table('bp_activity')} a
     WHERE a.type = 'activity_comment' AND a.item_id IN (?) ORDER BY a.id`,
    [rootIds],
  );
  return rows.map(toActivity);
}

export async function usersByIds(q: SourceQuery, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  const meta = (key: string) =>
    `(SELECT meta_value FROM ${q.table('usermeta')} WHERE user_id = u.ID AND meta_key = '${key}' LIMIT 1)`;
  const rows = await q.select<Record<string, unknown>>(
    `SELECT u.ID AS id, u.user_login AS login, u.user_email AS email, u.display_name AS displayName,
       u.user_registered AS registered, ${meta('first_name')} AS firstName, ${meta('last_name')} AS lastName,
       ${meta('description')} AS description
     FROM ${q.table('users')} u WHERE u.ID IN (?)`,
    [ids],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    login: String(row.login),
    email: String(row.email),
    displayName: String(row.displayName ?? ''),
    registered: String(row.registered),
    firstName: String(row.firstName ?? ''),
    lastName: String(row.lastName ?? ''),
    description: String(row.description ?? ''),
  }));
}
