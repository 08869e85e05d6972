import type { MigrationLedgerKind } from '../../db/keys/migrations.ts';
import { readIdSpace } from './id-spaces.ts';
import { migratedRows } from './ledger.ts';

const ID_SPACE_OF = { group: 'space', activity: 'post', comment: 'comment' } as const;

/**
 * Where migrated source rows are on the platform: source id → target id (a space, a feed, a comment) for the rows
 * some run has counted. Operators' tools and tests use it; the workers compute the same ids themselves.
 */
export async function findMigratedTargets(
  source: string,
  kind: Exclude<MigrationLedgerKind, 'membership'>,
  sourceIds: readonly number[],
): Promise<Map<number, number>> {
  const [migrated, space] = await Promise.all([
    migratedRows(source, kind, sourceIds),
    readIdSpace(source, ID_SPACE_OF[kind]),
  ]);
  const answer = new Map<number, number>();
  for (const id of migrated) {
    const target = space?.targetOf(id);
    if (target !== undefined) answer.set(id, target);
  }
  return answer;
}
