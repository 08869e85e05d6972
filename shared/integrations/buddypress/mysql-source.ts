import * as collections from './mysql-collections.ts';
import { type MysqlSourceConfig, openSourceQuery } from './mysql-query.ts';
import * as tables from './mysql-tables.ts';
import type { BuddypressSource } from './source.ts';

export type { MysqlSourceConfig } from './mysql-query.ts';

/**
 * The BuddyPress source over a read-only MySQL connection (mysql-query.ts): planning's reads
 * (mysql-collections.ts) and one reader per table (mysql-tables.ts), each a keyset range on `id`.
 */
export async function mysqlSource(config: MysqlSourceConfig): Promise<BuddypressSource> {
  const q = await openSourceQuery(config);
  return {
    isInstalled: () => collections.isInstalled(q),
    counts: () => collections.counts(q),
    nextChunkEnd: (collection, afterId, size, maxSpan) =>
      collections.nextChunkEnd(q, collection, afterId, size, maxSpan),
    idRange: (table) => collections.idRange(q, table),
    groupsInRange: (afterId, upTo) => tables.groupsInRange(q, afterId, upTo),
    membershipsInRange: (afterId, upTo) => tables.membershipsInRange(q, afterId, upTo),
    rootActivitiesInRange: (afterId, upTo) => tables.rootActivitiesInRange(q, afterId, upTo),
    commentsOfRoots: (rootIds) => tables.commentsOfRoots(q, rootIds),
    usersByIds: (ids) => tables.usersByIds(q, ids),
    close: () => q.close(),
  };
}
