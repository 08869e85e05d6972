import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { spaceSlugGuardKey } from '../../shared/db/keys/spaces.ts';
import { topicStatsKey } from '../../shared/db/keys/topics.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { ImportError } from '../../shared/domain/import/import-error.ts';
import { findImportJournals } from '../../shared/domain/import/import-journal-repository.ts';
import { ImportPlan } from '../../shared/domain/import/import-plan.ts';
import { writeImport } from '../../shared/domain/import/write-import.ts';

/**
 * All or nothing beyond one transaction: an import larger than one transaction is written under a journal, and
 * when a later transaction fails (here: a slug created "concurrently" after the checks) the committed ones are
 * undone from their markers, leaving neither items, counts nor log behind.
 */
const get = async (key: ItemKey) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** Journals of this test's imports, recognised by the section name it records. */
const journalsOf = async (section: string) =>
  (await findImportJournals()).filter((journal) => journal.items[section] !== undefined);

function guardsPlan(slugs: readonly string[], probe: string, amounts: readonly number[]): ImportPlan {
  const plan = new ImportPlan();
  for (const [i, slug] of slugs.entries()) {
    plan.guard(
      { ...spaceSlugGuardKey(slug), entity: 'space_slug_guard', space_id: i },
      `spaces[${i}]: slug "${slug}"`,
    );
  }
  for (const amount of amounts)
    plan.unit('probe', [], [{ key: topicStatsKey(), deltas: { [probe]: amount } }]);
  return plan;
}

describe('writeImport', () => {
  it('undoes the committed transactions when a later one fails', async () => {
    const run = randomBytes(4).toString('hex');
    const slugs = Array.from({ length: 150 }, (_, i) => `comp-${run}-${i}`);
    // A concurrent create took slug 120 after the import's checks: its guard lands in the second transaction.
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...spaceSlugGuardKey(slugs[120]!), space_id: -1 } }),
    );
    const before = (await get(topicStatsKey()))?.[`probe:${run}`];

    const error = await writeImport(guardsPlan(slugs, `probe:${run}`, [1]), { [`comp-${run}`]: 150 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toContain(`spaces[120]: slug "${slugs[120]}"`);

    for (const [i, slug] of slugs.entries()) {
      const item = await get(spaceSlugGuardKey(slug));
      if (i === 120) expect(item).toMatchObject({ space_id: -1 });
      else expect(item, slug).toBeUndefined();
    }
    expect((await get(topicStatsKey()))?.[`probe:${run}`]).toBe(before);
    expect(await journalsOf(`comp-${run}`)).toEqual([]);
  });

  it('writes a plan larger than one transaction completely and removes its log', async () => {
    const run = randomBytes(4).toString('hex');
    const slugs = Array.from({ length: 230 }, (_, i) => `big-${run}-${i}`);
    await writeImport(guardsPlan(slugs, `probe:${run}`, [2, 3]), { [`big-${run}`]: 230 });
    expect(await get(spaceSlugGuardKey(slugs[229]!))).toMatchObject({ space_id: 229 });
    expect((await get(topicStatsKey()))?.[`probe:${run}`]).toBe(5);
    expect(await journalsOf(`big-${run}`)).toEqual([]);
  });
});
