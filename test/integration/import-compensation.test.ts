import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { spaceSlugGuardKey } from '../../shared/db/keys/spaces.ts';
import { topicStatsKey } from '../../shared/db/keys/topics.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { ImportError } from '../../shared/domain/import/import-error.ts';
import { ImportWrites } from '../../shared/domain/import/import-writes.ts';
import { writeAllOrNothing } from '../../shared/domain/import/write-all-or-nothing.ts';

/**
 * All or nothing beyond one transaction: an import larger than 100 actions is several transactions, and when a
 * later one fails (here: a slug created "concurrently" after the checks), the earlier ones are undone.
 */
const get = async (key: ItemKey) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('writeAllOrNothing', () => {
  it('undoes the committed transactions when a later one fails', async () => {
    const run = randomBytes(4).toString('hex');
    const slugs = Array.from({ length: 150 }, (_, i) => `comp-${run}-${i}`);
    // A concurrent create took slug 120 after the import's checks: its guard lands in the second transaction.
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...spaceSlugGuardKey(slugs[120]!), space_id: -1 } }),
    );
    const before = (await get(topicStatsKey()))?.[`probe:${run}`];

    const writes = new ImportWrites();
    for (const [i, slug] of slugs.entries()) {
      writes.put(
        { ...spaceSlugGuardKey(slug), entity: 'space_slug_guard', space_id: i },
        `spaces[${i}]: slug "${slug}"`,
      );
    }
    writes.add(topicStatsKey(), { [`probe:${run}`]: 1 });

    const error = await writeAllOrNothing(writes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toContain(`spaces[120]: slug "${slugs[120]}"`);

    for (const [i, slug] of slugs.entries()) {
      const item = await get(spaceSlugGuardKey(slug));
      if (i === 120) expect(item).toMatchObject({ space_id: -1 });
      else expect(item, slug).toBeUndefined();
    }
    expect((await get(topicStatsKey()))?.[`probe:${run}`]).toBe(before);
  });

  it('writes a file larger than one transaction completely', async () => {
    const run = randomBytes(4).toString('hex');
    const writes = new ImportWrites();
    for (let i = 0; i < 230; i++) {
      writes.put(
        { ...spaceSlugGuardKey(`big-${run}-${i}`), entity: 'space_slug_guard', space_id: i },
        `spaces[${i}]`,
      );
    }
    writes.add(topicStatsKey(), { [`probe:${run}`]: 2 });
    writes.add(topicStatsKey(), { [`probe:${run}`]: 3 });
    await writeAllOrNothing(writes);
    expect(await get(spaceSlugGuardKey(`big-${run}-229`))).toMatchObject({ space_id: 229 });
    expect((await get(topicStatsKey()))?.[`probe:${run}`]).toBe(5);
  });
});
