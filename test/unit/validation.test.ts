import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  boolQuery,
  cursorQuery,
  idParam,
  idQuery,
  intQuery,
  isoDateTime,
  pageQuery,
  perPageQuery,
  sqlDateTime,
} from '../../shared/contracts/fields.ts';
import { type AppError, isAppError } from '../../shared/errors/app-error.ts';
import { validatePart } from '../../shared/http/validation.ts';

/** decisions.md, "Validation errors": WordPress REST conventions in the contract's envelope. */
function failure(schema: v.GenericSchema, input: unknown): AppError {
  try {
    validatePart(schema, input);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected validation to fail');
}

const body = v.strictObject({
  title: v.pipe(v.string(), v.maxLength(5, 'must be at most 5 characters')),
  count: v.optional(v.pipe(v.number(), v.integer())),
  nested: v.optional(v.strictObject({ flag: v.boolean(), url: v.optional(v.string()) })),
  tags: v.optional(v.array(v.pipe(v.number(), v.integer()))),
});

describe('validatePart', () => {
  it('returns the parsed output on success', () => {
    expect(validatePart(body, { title: 'abc', count: 2 })).toEqual({ title: 'abc', count: 2 });
  });

  it('missing required fields → 400 rest_missing_callback_param listing the names', () => {
    const error = failure(v.strictObject({ a: v.string(), b: v.number(), c: v.optional(v.string()) }), {});
    expect(error.code).toBe('rest_missing_callback_param');
    expect(error.status).toBe(400);
    expect(error.data.params).toEqual(['a', 'b']);
    expect(error.message).toContain('a');
  });

  it('missing wins over invalid when both occur (presence is checked first)', () => {
    const error = failure(v.strictObject({ a: v.string(), b: v.number() }), { b: 'x' });
    expect(error.code).toBe('rest_missing_callback_param');
    expect(error.data.params).toEqual(['a']);
  });

  it('invalid values → 400 rest_invalid_param mapping each name to a message', () => {
    const error = failure(body, { title: 'too long', count: 1.5 });
    expect(error.code).toBe('rest_invalid_param');
    expect(error.status).toBe(400);
    const params = error.data.params as Record<string, string>;
    expect(Object.keys(params).sort()).toEqual(['count', 'title']);
    expect(params.title).toBe('must be at most 5 characters');
    expect(typeof params.count).toBe('string');
  });

  it('names nested fields with dots and array items by index', () => {
    const error = failure(body, { title: 'ok', nested: { flag: 'yes' }, tags: [1, 'x'] });
    expect(error.code).toBe('rest_invalid_param');
    expect(Object.keys(error.data.params as object).sort()).toEqual(['nested.flag', 'tags.1']);
  });

  it('a missing nested required field is reported by its dotted name', () => {
    const error = failure(body, { title: 'ok', nested: {} });
    expect(error.code).toBe('rest_missing_callback_param');
    expect(error.data.params).toEqual(['nested.flag']);
  });

  it('rejects unknown body fields with rest_invalid_param, nested ones by dotted name', () => {
    const error = failure(body, { title: 'ok', extra: 1, nested: { flag: true, other: 2 } });
    expect(error.code).toBe('rest_invalid_param');
    const params = error.data.params as Record<string, string>;
    expect(Object.keys(params).sort()).toEqual(['extra', 'nested.other']);
    expect(params.extra).toMatch(/not a known field/);
  });

  it.each([['a string'], [42], [true]])(
    'a body that is not an object (%j) is invalid as a whole',
    (input) => {
      const error = failure(body, input);
      expect(error.code).toBe('rest_invalid_param');
      expect(Object.keys(error.data.params as object)).toEqual(['body']);
    },
  );

  it.each([[[]], [[1, 2]]])('a JSON array body (%j) is invalid as a whole', (input) => {
    const error = failure(body, input);
    expect(error.code).toBe('rest_invalid_param');
    expect(error.data.params).toEqual({ body: 'must be a JSON object' });
  });

  it('ignores unknown query parameters (loose objects drop them)', () => {
    const query = v.object({ page: pageQuery() });
    expect(validatePart(query, { page: '2', unknown: 'x' })).toEqual({ page: 2 });
  });
});

describe('query and path field helpers', () => {
  const query = v.object({ page: pageQuery(), per_page: perPageQuery(20) });

  it('page and per_page default as documented', () => {
    expect(validatePart(query, {})).toEqual({ page: 1, per_page: 20 });
    expect(validatePart(v.object({ per_page: perPageQuery(50) }), {})).toEqual({ per_page: 50 });
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['37', 37],
  ])('per_page %s is accepted', (raw, parsed) => {
    expect(validatePart(query, { per_page: raw }).per_page).toBe(parsed);
  });

  it.each(['0', '101', '-1', 'abc', '1.5', '', ' 5', '1e2', '9999999999999999'])(
    'per_page %j is rejected',
    (raw) => {
      const error = failure(query, { per_page: raw });
      expect(error.code).toBe('rest_invalid_param');
      expect(Object.keys(error.data.params as object)).toEqual(['per_page']);
    },
  );

  it.each(['0', '-3', 'x', '2.0'])('page %j is rejected', (raw) => {
    const error = failure(query, { page: raw });
    expect(error.code).toBe('rest_invalid_param');
    expect((error.data.params as Record<string, string>).page).toMatch(/integer/);
  });

  it('page has no upper bound (past the end is a 200 with empty data)', () => {
    expect(validatePart(query, { page: '100000' }).page).toBe(100000);
  });

  it('intQuery enforces custom bounds', () => {
    const schema = v.object({ n: intQuery({ min: 0, max: 3 }) });
    expect(validatePart(schema, { n: '0' })).toEqual({ n: 0 });
    expect(validatePart(schema, {})).toEqual({ n: undefined });
    expect(failure(schema, { n: '4' }).data.params).toEqual({ n: 'must be an integer between 0 and 3' });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('boolean %s → %s', (raw, parsed) => {
    expect(validatePart(v.object({ flag: boolQuery() }), { flag: raw })).toEqual({ flag: parsed });
  });

  it.each(['yes', 'TRUE', '2', ''])('boolean %j is rejected', (raw) => {
    const error = failure(v.object({ flag: boolQuery() }), { flag: raw });
    expect(error.code).toBe('rest_invalid_param');
    expect(error.data.params).toEqual({ flag: 'must be a boolean (true or false)' });
  });

  it('an absent boolean stays undefined (no filter)', () => {
    expect(validatePart(v.object({ flag: boolQuery() }), {})).toEqual({ flag: undefined });
  });

  it.each([
    ['1', 1],
    ['42', 42],
    ['999999999999999', 999999999999999],
    // Time ids (shared/db/ids.ts) have 16 digits, up to Number.MAX_SAFE_INTEGER.
    ['4503599627370496', 4503599627370496],
    ['9007199254740991', 9007199254740991],
  ])('id %s → %s', (raw, parsed) => {
    expect(validatePart(v.object({ id: idParam() }), { id: raw })).toEqual({ id: parsed });
  });

  it.each(['0', '-1', 'abc', '1.5', '9007199254740992', '12345678901234567', '00'])(
    'id %j is rejected',
    (raw) => {
      const error = failure(v.object({ id: idParam() }), { id: raw });
      expect(error.code).toBe('rest_invalid_param');
      expect(error.data.params).toEqual({ id: 'must be a positive integer' });
    },
  );

  it('an id in a query takes the same 16 digits (user_id of a user:create user), 0 only when allowed', () => {
    const schema = v.object({ user_id: idQuery({ min: 1 }), parent_id: idQuery({ min: 0 }) });
    expect(validatePart(schema, { user_id: '4503599627370496', parent_id: '0' })).toEqual({
      user_id: 4503599627370496,
      parent_id: 0,
    });
    expect(validatePart(schema, {})).toEqual({});
    for (const raw of ['0', '-1', '9007199254740992', '12345678901234567']) {
      expect(failure(schema, { user_id: raw }).data.params).toEqual({ user_id: 'must be an integer >= 1' });
    }
  });

  it('a missing id is rest_missing_callback_param', () => {
    expect(failure(v.object({ id: idParam() }), {}).code).toBe('rest_missing_callback_param');
  });

  it('cursor accepts url-safe tokens only', () => {
    const schema = v.object({ cursor: cursorQuery() });
    expect(validatePart(schema, { cursor: 'eyJhIjoxfQ_-' })).toEqual({ cursor: 'eyJhIjoxfQ_-' });
    expect(failure(schema, { cursor: 'a b' }).code).toBe('rest_invalid_param');
    expect(failure(schema, { cursor: 'x'.repeat(2049) }).code).toBe('rest_invalid_param');
  });

  it('date-time formats are the contract two', () => {
    expect(v.is(sqlDateTime(), '2024-01-02 03:04:05')).toBe(true);
    expect(v.is(sqlDateTime(), '2024-01-02T03:04:05')).toBe(false);
    expect(v.is(isoDateTime(), '2024-01-02T03:04:05')).toBe(true);
    expect(v.is(isoDateTime(), '2024-01-02T03:04:05Z')).toBe(false);
    expect(v.is(isoDateTime(), '2024-01-02 03:04:05')).toBe(false);
  });
});

describe('echoed names stay small (an error body never repeats megabytes of client input)', () => {
  it('cuts a long unknown key to 100 characters with an ellipsis, in data.params and in the message', () => {
    const key = `k${'é'.repeat(10_000)}`;
    const error = failure(v.strictObject({ a: v.optional(v.string()) }), { [key]: 1 });
    const clipped = `${key.slice(0, 100)}…`;
    expect(error.data.params).toEqual({ [clipped]: 'is not a known field' });
    expect(error.message).toBe(`Invalid parameter(s): ${clipped}`);
  });

  it('never splits a surrogate pair', () => {
    const key = `${'a'.repeat(99)}${'😀'.repeat(10)}`;
    const error = failure(v.strictObject({}), { [key]: 1 });
    expect(Object.keys(error.data.params as object)).toEqual([`${'a'.repeat(99)}…`]);
  });

  it('lists at most 20 invalid names; the message counts the others', () => {
    const entries = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`f${index}`, v.number()]));
    const error = failure(v.object(entries), Object.fromEntries(Object.keys(entries).map((k) => [k, 'x'])));
    expect(Object.keys(error.data.params as object)).toEqual(Array.from({ length: 20 }, (_, i) => `f${i}`));
    expect(error.message).toBe(
      `Invalid parameter(s): ${Array.from({ length: 20 }, (_, i) => `f${i}`).join(', ')} and 30 more`,
    );
  });

  it('lists at most 20 missing names; the message counts the others', () => {
    const entries = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`m${index}`, v.string()]));
    const error = failure(v.object(entries), {});
    expect(error.code).toBe('rest_missing_callback_param');
    expect(error.data.params).toHaveLength(20);
    expect(error.message).toMatch(/ and 5 more$/);
  });
});
