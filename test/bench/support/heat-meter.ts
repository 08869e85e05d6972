import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { observeDynamoDbCalls } from '../../../shared/db/call-observer.ts';
import { type Charge, checkCharge, type Item, itemSize, readUnits, writeCharges } from './heat-units.ts';

/**
 * The heat benchmark's meter: every DynamoDB call this process makes through the shared client (handlers and the
 * in-process workers alike) while `recording`, charged to partitions by DynamoDB's rules (heat-units.ts).
 *
 * Writes need the item's images: around each write the meter reads the items it names (one consistent
 * BatchGetItem before, one after, on a client of its own that it does not observe). Concurrent writes to one item
 * may see each other's images; the error is a unit here and there on hot counters, not a change of shape.
 */
type Key = { pk: string; sk: string };
type Action = { kind: 'put' | 'update' | 'delete' | 'check'; key: Key; transactional: boolean };

export interface HeatTally {
  readonly reads: Map<string, number>;
  readonly writes: Map<string, number>;
  cancelledTransactions: number;
  transactions: number;
}

export function startHeatMeter(endpoint: string, region: string, tableName: string) {
  const images = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region }));
  let recording = false;
  const tally: HeatTally = { reads: new Map(), writes: new Map(), cancelledTransactions: 0, transactions: 0 };
  const charge = (into: Map<string, number>, { where, pk, units }: Charge) => {
    const name = `${where} ${pk}`;
    into.set(name, (into.get(name) ?? 0) + units);
  };

  async function imagesOf(keys: readonly Key[]): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    const unique = [...new Map(keys.map((key) => [`${key.pk}\u0000${key.sk}`, key])).values()];
    for (let start = 0; start < unique.length; start += 100) {
      let pending: Key[] | undefined = unique.slice(start, start + 100);
      while (pending && pending.length > 0) {
        const result = await images.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of result.Responses?.[tableName] ?? []) found.set(`${item.pk}\u0000${item.sk}`, item);
        pending = result.UnprocessedKeys?.[tableName]?.Keys as Key[] | undefined;
      }
    }
    return found;
  }

  const stop = observeDynamoDbCalls(async (call, send) => {
    if (!recording) return send();
    const actions = writeActions(call.operation, call.input);
    if (actions.length === 0) {
      const output = await send();
      if (recording) chargeRead(call.operation, call.input, output);
      return output;
    }
    const before = await imagesOf(actions.map((action) => action.key));
    let failed = false;
    try {
      return await send();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      if (call.operation === 'TransactWriteItems') {
        tally.transactions++;
        if (failed) tally.cancelledTransactions++;
      }
      const after = failed ? before : await imagesOf(actions.map((action) => action.key));
      for (const action of actions) {
        const id = `${action.key.pk}\u0000${action.key.sk}`;
        const [old, now] = [before.get(id), after.get(id)];
        if (action.kind === 'check' || failed) {
          charge(tally.writes, checkCharge(old, action.key.pk, action.transactional));
        } else {
          for (const each of writeCharges(old, now, { transactional: action.transactional, key: action.key }))
            charge(tally.writes, each);
        }
      }
    }
  });

  function chargeRead(
    operation: string,
    input: Readonly<Record<string, unknown>>,
    output: Record<string, unknown>,
  ) {
    const consistent = input.ConsistentRead === true;
    if (operation === 'GetItem') {
      const item = output.Item as Item | undefined;
      charge(tally.reads, {
        where: 'table',
        pk: (input.Key as Key).pk,
        units: readUnits(item ? itemSize(item) : 0, consistent),
      });
    } else if (operation === 'Query') {
      const values = input.ExpressionAttributeValues as Record<string, unknown>;
      const bytes = ((output.Items as Item[] | undefined) ?? []).reduce(
        (sum, item) => sum + itemSize(item),
        0,
      );
      const where = typeof input.IndexName === 'string' ? input.IndexName : 'table';
      charge(tally.reads, { where, pk: String(values[':pk']), units: readUnits(bytes, consistent) });
    } else if (operation === 'BatchGetItem') {
      for (const [table, request] of Object.entries(
        input.RequestItems as Record<string, { Keys: Key[]; ConsistentRead?: boolean }>,
      )) {
        const got = new Map(
          ((output.Responses as Record<string, Item[]> | undefined)?.[table] ?? []).map((item) => [
            `${item.pk}\u0000${item.sk}`,
            item,
          ]),
        );
        const left = new Set(
          ((output.UnprocessedKeys as Record<string, { Keys: Key[] }> | undefined)?.[table]?.Keys ?? []).map(
            (key) => `${key.pk}\u0000${key.sk}`,
          ),
        );
        for (const key of request.Keys) {
          const id = `${key.pk}\u0000${key.sk}`;
          if (left.has(id)) continue;
          const item = got.get(id);
          charge(tally.reads, {
            where: 'table',
            pk: key.pk,
            units: readUnits(item ? itemSize(item) : 0, request.ConsistentRead === true),
          });
        }
      }
    } else if (operation === 'TransactGetItems') {
      const responses = (output.Responses as { Item?: Item }[] | undefined) ?? [];
      (input.TransactItems as { Get: { Key: Key } }[]).forEach((action, at) => {
        const item = responses[at]?.Item;
        charge(tally.reads, {
          where: 'table',
          pk: action.Get.Key.pk,
          units: readUnits(item ? itemSize(item) : 0, true, true),
        });
      });
    }
  }

  return {
    tally,
    record(on: boolean) {
      recording = on;
    },
    reset() {
      tally.reads.clear();
      tally.writes.clear();
      tally.cancelledTransactions = 0;
      tally.transactions = 0;
    },
    stop() {
      stop();
      images.destroy();
    },
  };
}

/** The items a write names, with what it does to each (none for reads). */
function writeActions(operation: string, input: Readonly<Record<string, unknown>>): Action[] {
  const keyOf = (item: Item) => ({ pk: String(item.pk), sk: String(item.sk) });
  switch (operation) {
    case 'PutItem':
      return [{ kind: 'put', key: keyOf(input.Item as Item), transactional: false }];
    case 'UpdateItem':
      return [{ kind: 'update', key: keyOf(input.Key as Item), transactional: false }];
    case 'DeleteItem':
      return [{ kind: 'delete', key: keyOf(input.Key as Item), transactional: false }];
    case 'TransactWriteItems':
      return (input.TransactItems as Record<string, { Key?: Item; Item?: Item }>[]).map((action) => {
        const [name, body] = Object.entries(action)[0] as [string, { Key?: Item; Item?: Item }];
        const kind =
          name === 'Put' ? 'put' : name === 'Delete' ? 'delete' : name === 'Update' ? 'update' : 'check';
        return { kind, key: keyOf((body.Item ?? body.Key) as Item), transactional: true };
      });
    case 'BatchWriteItem':
      return Object.values(
        input.RequestItems as Record<string, Record<string, { Item?: Item; Key?: Item }>[]>,
      )
        .flat()
        .map((request) => ({
          kind: request.PutRequest ? ('put' as const) : ('delete' as const),
          key: keyOf((request.PutRequest?.Item ?? request.DeleteRequest?.Key) as Item),
          transactional: false,
        }));
    default:
      return [];
  }
}
