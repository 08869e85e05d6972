import type { SourceQuery } from './mysql-query.ts';
import { membershipFilter, ROOT_FILTER } from './mysql-tables.ts';
import type { SourceCollection, SourceCounts, SourceTable } from './source.ts';

/**
 * What planning reads of the source: whether it is installed, how much each collection holds, where each chunk
 * ends and the id range an id space must cover. A collection is its table and the filter of the rows that migrate.
 */
const collection = (q: SourceQuery, name: SourceCollection) =>
  ({
    groups: { from: `${q.table('bp_groups')} g`, id: 'g.id', filter: '1 = 1' },
    members: { from: `${q.table('bp_groups_members')} m`, id: 'm.id', filter: membershipFilter(q) },
    activities: { from: `${q.table('bp_activity')} a`, id: 'a.id', filter: ROOT_FILTER },
  })[name];

const SOURCE_TABLES = ['users', 'bp_groups', 'bp_groups_members', 'bp_activity'];

export async function isInstalled(q: SourceQuery): Promise<boolean> {
  const rows = await q.select<{ n: number }>(
    'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN (?)',
    [SOURCE_TABLES.map((name) => `${q.tablePrefix}${name}`)],
  );
  return Number(rows[0]?.n) === SOURCE_TABLES.length;
}

export async function counts(q: SourceQuery): Promise<SourceCounts> {
  const count = async (name: SourceCollection) => {
    const { from, filter } = collection(q, name);
    const rows = await q.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${from} WHERE ${filter}`);
    return Number(rows[0]?.n ?? 0);
  };
  const comments = await q.select<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${q.table('bp_activity')} c JOIN ${q.table('bp_activity')} a ON a.id = c.item_id
     WHERE c.type = 'activity_comment' AND c.is_spam = 0 AND ${ROOT_FILTER}`,
  );
  return {
    groups: await count('groups'),
    members: await count('members'),
    activities: await count('activities'),
    comments: Number(comments[0]?.n ?? 0),
  };
}

export async function nextChunkEnd(
  q: SourceQuery,
  name: SourceCollection,
  afterId: number,
  size: number,
  maxSpan: number,
): Promise<{ upTo: number; rows: number } | undefined> {
  const { from, id, filter } = collection(q, name);
  // One keyset page in primary-key order (MIN(id) under a filter lets the optimizer pick a secondary index and
  // read every row of it); the ids within maxSpan of the first are a prefix of the page.
  const rows = await q.select<{ id: number }>(
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
}

const ID_COLUMNS: Record<SourceTable, [table: string, id: string]> = {
  users: ['users', 'ID'],
  groups: ['bp_groups', 'id'],
  activity: ['bp_activity', 'id'],
};

export async function idRange(
  q: SourceQuery,
  table: SourceTable,
): Promise<{ min: number; max: number } | undefined> {
  const [name, id] = ID_COLUMNS[table];
  const rows = await q.select<{ low: number | null; high: number | null }>(
    `SELECT MIN(${id}) AS low, MAX(${id}) AS high FROM ${q.table(name)}`,
  );
  const row = rows[0];
  return row?.low == null || row.high == null ? undefined : { min: Number(row.low), max: Number(row.high) };
}
