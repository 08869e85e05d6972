import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { itemRead, itemsRead, mapRead, noRead, readTogether } from '../../shared/db/read-together.ts';
import { commandsSentBy } from '../support/sent-commands.ts';

/**
 * shared/db/read-together.ts: independent reads of several kinds go in one BatchGetItem, strongly consistent when
 * any of them asks, each answered with its own parse and in the order given; nothing is sent when no read has a key.
 */

const Named = v.object({ name: v.string() });
const Numbered = v.object({ n: v.number() });
const token = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

describe('readTogether', () => {
  it('sends one BatchGetItem for reads of several kinds and answers each in order', async () => {
    const pk = `RT#${token()}`;
    const put = (sk: string, item: Record<string, unknown>) =>
      db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk, ...item } }));
    await Promise.all([put('A', { name: 'a' }), put('N1', { n: 1 }), put('N2', { n: 2 })]);

    let answers: unknown;
    const sent = await commandsSentBy(async () => {
      answers = await readTogether([
        itemRead({ pk, sk: 'A' }, Named),
        itemRead({ pk, sk: 'MISSING' }, Named),
        mapRead(
          itemsRead(
            [
              { pk, sk: 'N2' },
              { pk, sk: 'N0' },
              { pk, sk: 'N1' },
            ],
            Numbered,
          ),
          (items) => items.map((item) => item.n),
        ),
        noRead('nothing to read'),
      ]);
    });
    expect(answers).toEqual([{ name: 'a' }, undefined, [2, 1], 'nothing to read']);
    expect(sent.map((command) => command.name)).toEqual(['BatchGetItemCommand']);
    expect(JSON.stringify(sent[0]?.input)).not.toContain('ConsistentRead');
  });

  it('reads the whole batch consistently when one read asks for it', async () => {
    const pk = `RT#${token()}`;
    const sent = await commandsSentBy(() =>
      readTogether([
        itemRead({ pk, sk: 'A' }, Named),
        itemRead({ pk, sk: 'B' }, Named, { consistent: true }),
      ]),
    );
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]?.input)).toContain('"ConsistentRead":true');
  });

  it('sends nothing when no read has a key', async () => {
    const sent = await commandsSentBy(() => readTogether([noRead(1), itemsRead([], Named)]));
    expect(sent).toEqual([]);
  });
});
