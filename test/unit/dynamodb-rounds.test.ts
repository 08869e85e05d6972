import { describe, expect, it } from 'vitest';
import { partitionsOf } from '../../infra/local/dynamodb-meter.ts';
import { callKind, roundTrips, serialRounds } from '../../infra/local/dynamodb-rounds.ts';

const call = (start: number, end: number, operation = 'GetItem') => ({ operation, start, end });

describe('serial rounds of a request’s DynamoDB calls', () => {
  it('no call is no round; one call is one', () => {
    expect(serialRounds([])).toBe(0);
    expect(serialRounds([call(0, 5)])).toBe(1);
  });

  it('calls that overlap in time (a Promise.all) are one round', () => {
    expect(serialRounds([call(0, 5), call(0.1, 4), call(0.2, 6)])).toBe(1);
  });

  it('a call started after another ended is a new round', () => {
    expect(serialRounds([call(0, 5), call(5.5, 9), call(9.1, 12)])).toBe(3);
    // Starting the moment the other ended still waited for it.
    expect(serialRounds([call(0, 5), call(5, 9)])).toBe(2);
  });

  it('counts the longest chain even when a long call overlaps both links', () => {
    // B then C, in series, while A runs alongside both: two rounds, not one.
    expect(serialRounds([call(0, 10), call(1, 2), call(3, 4)])).toBe(2);
  });

  it('does not depend on the order calls are listed', () => {
    const calls = [call(6, 8), call(0, 2), call(3, 5), call(1, 4)];
    expect(serialRounds(calls)).toBe(3);
    expect(serialRounds([...calls].reverse())).toBe(3);
  });

  it('counts reads and writes by operation', () => {
    expect(callKind('BatchGetItem')).toBe('read');
    expect(callKind('TransactWriteItems')).toBe('write');
    expect(callKind('DescribeTable')).toBe('other');
    expect(
      roundTrips([
        call(0, 2, 'GetItem'),
        call(0, 2, 'Query'),
        call(3, 4, 'TransactWriteItems'),
        call(5, 6, 'UpdateItem'),
      ]),
    ).toEqual({ rounds: 3, reads: 2, writes: 2 });
  });
});

describe('partition keys a call names', () => {
  it('reads keys, items, batches, transactions and key conditions', () => {
    expect(partitionsOf({ Key: { pk: 'USER#1', sk: 'USER' } })).toEqual(['USER#1']);
    expect(
      partitionsOf({
        TransactItems: [
          { Put: { Item: { pk: 'POST#1', sk: 'POST' } } },
          { Update: { Key: { pk: 'USER#1', sk: 'USER' } } },
          { ConditionCheck: { Key: { pk: 'USER#1', sk: 'X' } } },
        ],
      }),
    ).toEqual(['POST#1', 'USER#1']);
    expect(
      partitionsOf({
        RequestItems: {
          t: {
            Keys: [
              { pk: 'A', sk: '1' },
              { pk: 'B', sk: '1' },
            ],
          },
        },
      }),
    ).toEqual(['A', 'B']);
    expect(
      partitionsOf({
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :skPrefix)',
        ExpressionAttributeValues: { ':pk': 'FEEDS', ':skPrefix': '2024' },
      }),
    ).toEqual(['FEEDS']);
  });
});
