import type { Pool, RowDataPacket } from 'mysql2/promise';
import type {
  ActivityRow,
  BuddypressSource,
  GroupRow,
  MembershipRow,
  SourceCollection,
  SourceCounts,
  UserRow,
} from './source.ts';

/**
 * The BuddyPress source over a read-only MySQL connection (mysql2). Sessions are set READ ONLY, so even a
 * credential with write rights cannot change the source. Dates stay strings (`dateStrings`): BuddyPress writes
 * GMT wall clocks and WordPress zero dates, which JS Dates would mangle. Every list is a keyset range on `id`.
 */
export interface MysqlSourceConfig {
  readonly uri?: string;
  readonly host?: string;
  readonly port?: number;
  readonly user?: string;
  readonly password?: string;
  readonly database?: string;
  readonly tablePrefix: string;
}

/** Migrating roots: `activity_update`, not spam; group updates whatever `hide_sitewide` says (decisions.md). */
const ROOT_FILTER =
  "a.type = 'activity_update' AND a.is_spam = 0 AND (a.component = 'groups' OR a.hide_sitewide = 0)";

/**
 * Opens the pool. The driver (mysql2 with iconv-lite, about 1 MB) is imported here, at run time, so only a
 * process that reads a configured source loads it; the functions that may read one name it in their catalogue
 * line (`nativeModules`), which keeps it out of their bundles and installs it beside them.
 */
export async function mysqlSource(config: MysqlSourceConfig): Promise<BuddypressSource> {
  if (!/^[A-Za-z0-9_]*$/.test(config.tablePrefix))
    throw new Error('The BuddyPress table prefix may hold only letters, digits and _');
  const t = (name: string) => `\`${config.tablePrefix}${name}\``;
  const { default: mysql } = await import('mysql2/promise');
  const pool: Pool = mysql.createPool({
    ...(config.uri
      ? { uri: config.uri }
      : {
          host: config.host,
          port: config.port ?? 3306,
          user: config.user,
          password: config.password,
          database: config.database,
        }),
    // One per chunk a worker process runs at once (the queue's maxConcurrency locally; one in a Lambda).
    connectionLimit: 4,
    dateStrings: true,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    connectTimeout: 5000,
  });
  pool.pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION READ ONLY');
  });
  const select = async <R>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const [rows] = await pool.query<RowDataPacket[]>(sql, params);
    return rows as unknown as R[];
  };

  const membershipFilter = `m.is_confirmed = 1 AND m.is_banned = 0
    AND EXISTS (SELECT 1 FROM ${t('bp_groups')} g WHERE g.id = m.group_id)
    AND EXISTS (SELECT 1 FROM ${t('users')} u WHERE u.ID = m.user_id)
    AND NOT EXISTS (SELECT 1 FROM ${t('bp_groups_members')} d WHERE d.group_id = m.group_id
      AND d.user_id = m.user_id AND d.is_confirmed = 1 AND d.is_banned = 0 AND d.id < m.id)`;
  const collections: Record<SourceCollection, { from: string; filter: string }> = {
    groups: { from: `${t('bp_groups')} g`, filter: '1 = 1' },
    members: { from: `${t('bp_groups_members')} m`, filter: membershipFilter },
    activities: { from: `${t('bp_activity')} a`, filter: ROOT_FILTER },
  };
  const alias = { groups: 'g', members: 'm', activities: 'a' } as const;
  const activityColumns = `a.id, a.user_id AS userId, a.component, a.type, a.content, a.item_id AS itemId,
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

  return {
    async isInstalled() {
      const rows = await select<{ n: number }>(
        'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN (?)',
        [
          ['users', 'bp_groups', 'bp_groups_members', 'bp_activity'].map(
            (name) => `${config.tablePrefix}${name}`,
          ),
        ],
      );
      return Number(rows[0]?.n) === 4;
    },

    async counts(): Promise<SourceCounts> {
      const count = async (collection: SourceCollection) => {
        const { from, filter } = collections[collection];
        const rows = await select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${from} WHERE ${filter}`);
        return Number(rows[0]?.n ?? 0);
      };
      const comments = await select<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${t('bp_activity')} c JOIN ${t('bp_activity')} a ON a.id = c.item_id
         WHERE c.type = 'activity_comment' AND c.is_spam = 0 AND ${ROOT_FILTER}`,
      );
      return {
        groups: await count('groups'),
        members: await count('members'),
        activities: await count('activities'),
        comments: Number(comments[0]?.n ?? 0),
      };
    },

    async nextChunkEnd(collection, afterId, size, maxSpan) {
      const { from, filter } = collections[collection];
      const id = `${alias[collection]}.id`;
      // One keyset page in primary-key order (MIN(id) under a filter lets the optimizer pick a secondary index and
      // read every row of it); the ids within maxSpan of the first are a prefix of the page.
      const rows = await select<{ id: number }>(
        `SELECT ${id} AS id FROM ${from} WHERE ${filter} AND ${id} > ? ORDER BY ${id} LIMIT ?`,
        [afterId, size],
      );
      const [first] = rows;
      if (!first) return undefined;
      const low = Number(first.id);
      // The first row is always in its own span, so the span's last row exists.
      const inSpan = rows.filter((row) => Number(row.id) < low + maxSpan);
      const last = inSpan.at(-1) ?? first;
      return { upTo: Number(last.id), rows: inSpan.length };
    },

    async idRange(table) {
      const [name, id] =
        table === 'users'
          ? ['users', 'ID']
          : table === 'groups'
            ? ['bp_groups', 'id']
            : ['bp_activity', 'id'];
      const rows = await select<{ low: number | null; high: number | null }>(
        `SELECT MIN(${id}) AS low, MAX(${id}) AS high FROM ${t(name)}`,
      );
      const row = rows[0];
      return row?.low == null || row.high == null
        ? undefined
        : { min: Number(row.low), max: Number(row.high) };
    },

    async groupsInRange(afterId, upTo) {
      const rows = await select<Record<string, unknown>>(
        `SELECT g.id, g.creator_id AS creatorId, g.name, g.slug, g.description, g.status,
           g.date_created AS dateCreated
         FROM ${t('bp_groups')} g WHERE g.id > ? AND g.id <= ? ORDER BY g.id`,
        [afterId, upTo],
      );
      return rows.map((row) => ({
        ...(row as unknown as GroupRow),
        id: Number(row.id),
        creatorId: Number(row.creatorId),
      }));
    },

    async membershipsInRange(afterId, upTo) {
      const rows = await select<Record<string, unknown>>(
        `SELECT m.id, m.group_id AS groupId, m.user_id AS userId, m.is_admin AS isAdmin, m.is_mod AS isMod,
           m.date_modified AS dateModified
         FROM ${t('bp_groups_members')} m WHERE ${membershipFilter} AND m.id > ? AND m.id <= ? ORDER BY m.id`,
        [afterId, upTo],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        groupId: Number(row.groupId),
        userId: Number(row.userId),
        isAdmin: Number(row.isAdmin) === 1,
        isMod: Number(row.isMod) === 1,
        dateModified: String(row.dateModified),
      })) satisfies MembershipRow[];
    },

    async rootActivitiesInRange(afterId, upTo) {
      const rows = await select<Record<string, unknown>>(
        `SELECT ${activityColumns} FROM ${t('bp_activity')} a
         WHERE ${ROOT_FILTER} AND a.id > ? AND a.id <= ? ORDER BY a.id`,
        [afterId, upTo],
      );
      return rows.map(toActivity);
    },

    async commentsOfRoots(rootIds) {
      if (rootIds.length === 0) return [];
      const rows = await select<Record<string, unknown>>(
        `SELECT ${activityColumns} FROM ${t('bp_activity')} a
         WHERE a.type = 'activity_comment' AND a.item_id IN (?) ORDER BY a.id`,
        [rootIds],
      );
      return rows.map(toActivity);
    },

    async usersByIds(ids) {
      if (ids.length === 0) return [];
      const meta = (key: string) =>
        `(SELECT meta_value FROM ${t('usermeta')} WHERE user_id = u.ID AND meta_key = '${key}' LIMIT 1)`;
      const rows = await select<Record<string, unknown>>(
        `SELECT u.ID AS id, u.user_login AS login, u.user_email AS email, u.display_name AS displayName,
           u.user_registered AS registered, ${meta('first_name')} AS firstName, ${meta('last_name')} AS lastName,
           ${meta('description')} AS description
         FROM ${t('users')} u WHERE u.ID IN (?)`,
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
      })) satisfies UserRow[];
    },

    close: () => pool.end(),
  };
}
