import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { readTogether } from '../../shared/db/read-together.ts';
import {
  createReplicas,
  readReplicated,
  replicaAbsentActions,
  replicaKeys,
  replicaPutActions,
  replicatedItem,
  replicatedItemsRead,
  setReplicated,
} from '../../shared/db/replicated-item.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import { commandsSentBy } from '../support/sent-commands.ts';
import { SETTINGS_REPLICAS } from '../../shared/domain/settings/settings-repository.ts';

/**
 * Items most requests read (the site settings) kept as copies (shared/db/replicated-item.ts), against DynamoDB
 * Local: a change reaches every copy at once, every read from any copy reflects every completed change, and the
 * item as it was stored before copies existed is carried over. Each test uses an item of its own (a test key, not a
 * settings group), so the site settings other files rely on are never touched.
 */
const testItem = (replicas = SETTINGS_REPLICAS) =>
  replicatedItem({ pk: `TESTREPLICA#${randomBytes(6).toString('hex')}`, sk: 'GENERAL' }, replicas);

const raw = async (key: ItemKey) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('replicated items', () => {
  it('a change is on every copy when it completes, and the next read from any copy sees it', async () => {
    const item = testItem();
    expect(await readReplicated(item)).toBeUndefined();
    for (let round = 0; round < 5; round++) {
      await setReplicated(item, { site_title: `Title ${round}` });
      for (const key of replicaKeys(item)) expect((await raw(key))?.site_title).toBe(`Title ${round}`);
      // Reads pick a copy at random: sixty reads in a row cover the copies many times over.
      const reads = await Promise.all(Array.from({ length: 60 }, () => readReplicated(item)));
      for (const read of reads) expect(read).toEqual({ site_title: `Title ${round}` });
    }
  });

  it('concurrent changes of different keys are all kept, on every copy', async () => {
    const item = testItem();
    await Promise.all(Array.from({ length: 10 }, (_, i) => setReplicated(item, { [`key_${i}`]: i })));
    const expected = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key_${i}`, i]));
    for (const key of replicaKeys(item)) expect(await raw(key)).toMatchObject(expected);
    expect(await readReplicated(item)).toEqual(expected);
  });

  it('carries the item stored before copies existed over to every copy, once', async () => {
    const item = testItem(4);
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...item.key, entity: 'settings', logo: 'old.png' } }),
    );
    const reads = await Promise.all(Array.from({ length: 8 }, () => readReplicated(item)));
    for (const read of reads) expect(read).toEqual({ entity: 'settings', logo: 'old.png' });
    // Reads never write (read-only functions read settings): no copy exists until a change or createReplicas.
    for (const key of replicaKeys(item)) expect(await raw(key)).toBeUndefined();
    await setReplicated(item, { site_title: 'New' });
    for (const key of replicaKeys(item))
      expect(await raw(key)).toMatchObject({ logo: 'old.png', site_title: 'New' });
    expect(await readReplicated(item)).toEqual({ entity: 'settings', logo: 'old.png', site_title: 'New' });
  });

  it('a first change on a table without copies creates them from the stored item, then changes them', async () => {
    const item = testItem(3);
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...item.key, access: 'everybody' } }));
    await setReplicated(item, { logo: 'x.png' });
    for (const key of replicaKeys(item))
      expect(await raw(key)).toMatchObject({ access: 'everybody', logo: 'x.png' });
  });

  it('createReplicas (the local stack, at start) copies once and never overwrites a change', async () => {
    const item = testItem(3);
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...item.key, logo: 'old.png' } }));
    await createReplicas(item);
    await setReplicated(item, { logo: 'new.png' });
    await createReplicas(item);
    for (const key of replicaKeys(item)) expect((await raw(key))?.logo).toBe('new.png');
    expect(await readReplicated(item)).toEqual({ logo: 'new.png' });
  });

  it("copies kept by the item's writer: read in the order asked, absent after a delete, the item before copies", async () => {
    const [kept, deleted, uncopied] = [testItem(4), testItem(4), testItem(4)];
    for (const item of [kept, deleted])
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...item.key, title: 'item' } }));
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...uncopied.key, title: 'before copies' } }),
    );
    await transactWrite([
      ...replicaPutActions(kept, { title: 'kept' }),
      ...replicaPutActions(deleted, { title: 'x' }),
    ]);
    for (const key of replicaKeys(kept)) expect(await raw(key)).toMatchObject({ title: 'kept' });
    await transactWrite(replicaAbsentActions(deleted));

    const sent = await commandsSentBy(async () => {
      for (let read = 0; read < 8; read++) {
        expect(await readTogether([replicatedItemsRead([uncopied, kept, deleted])] as const)).toEqual([
          [{ title: 'before copies' }, { title: 'kept' }, undefined],
        ]);
      }
    });
    // Per read one batch of one copy each, then one of the uncopied item's logical key: never the deleted one's.
    const keysRead = sent.map((command) => {
      const batch = (command.input.RequestItems as Record<string, { Keys: ItemKey[] }>)[tableName()];
      return (batch?.Keys ?? []).map((key) => key.pk);
    });
    expect(keysRead).toHaveLength(16);
    for (let read = 0; read < 8; read++) {
      expect(keysRead[2 * read]?.map((pk) => pk.replace(/#R\d$/, ''))).toEqual(
        [uncopied, kept, deleted].map((item) => item.key.pk),
      );
      expect(keysRead[2 * read + 1]).toEqual([uncopied.key.pk]);
    }
    expect(await readTogether([replicatedItemsRead([kept, deleted])] as const)).toEqual([
      [{ title: 'kept' }, undefined],
    ]);
  });
});
