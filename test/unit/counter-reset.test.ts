import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { counterResetAction } from '../../shared/db/counter-reset.ts';

// Action builders name the table: any name will do for a builder's shape.
const saved = { ...process.env };
beforeAll(() => {
  Object.assign(process.env, { TABLE_NAME: 'unit-test-table' });
  resetEnvCache();
});
afterAll(() => {
  process.env = { ...saved };
  resetEnvCache();
});

const key = { pk: 'FEEDS#R0#S1', sk: 'STATS' };

describe('counterResetAction', () => {
  it('writes nothing when every counter already holds its recount (absent reads as 0)', () => {
    expect(counterResetAction(key, { public: 2, 'members:7': 0 }, { ...key, public: 2 })).toBeUndefined();
    expect(counterResetAction(key, { public: 0 }, undefined)).toBeUndefined();
  });

  it('sets the differing counters, conditioned on the values seen, and zeroes counters nothing counts', () => {
    const action = counterResetAction(key, { public: 3 }, { ...key, public: 2, 'members:7': 1 });
    const update = action?.Update;
    expect(update?.UpdateExpression).toBe('SET #c0 = :c0, #c1 = :c1');
    expect(update?.ExpressionAttributeNames).toEqual({ '#c0': 'public', '#c1': 'members:7' });
    expect(update?.ExpressionAttributeValues).toEqual({ ':c0': 3, ':o0': 2, ':c1': 0, ':o1': 1 });
    expect(update?.ConditionExpression).toBe('#c0 = :o0 AND #c1 = :o1');
  });

  it('creates an absent item only while it is still absent, with its identity', () => {
    const action = counterResetAction(key, { posts_count: 2 }, undefined, { space_id: 5 });
    expect(action?.Update?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(action?.Update?.UpdateExpression).toBe('SET #c0 = :c0, #i0 = if_not_exists(#i0, :i0)');
  });

  it('leaves identity numbers alone and conditions a counter the item lacks on its absence', () => {
    const action = counterResetAction(key, { posts_count: 1 }, { ...key, space_id: 5 }, { space_id: 5 });
    expect(action?.Update?.ExpressionAttributeNames).toEqual({ '#c0': 'posts_count', '#i0': 'space_id' });
    expect(action?.Update?.ConditionExpression).toBe('attribute_not_exists(#c0)');
  });
});
