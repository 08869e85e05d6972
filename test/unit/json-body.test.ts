import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors/app-error.ts';
import { jsonBodyParser } from '../../shared/http/body-parsers.ts';

/**
 * shared/http/body-parsers.ts, the JSON body of every write: parsed (base64 too, as API Gateway may send it), a
 * body in another media type refused with 415, invalid JSON and prototype-polluting keys refused with 400
 * `rest_invalid_json` (the route fuzz sends them through the gateway too).
 */
const parse = async (body: string | null, options: { type?: string; base64?: boolean } = {}) => {
  const request = {
    event: {
      body,
      headers: { 'content-type': options.type ?? 'application/json' },
      isBase64Encoded: options.base64 ?? false,
    },
  };
  await jsonBodyParser().before(request);
  return (request.event as { body?: unknown }).body;
};

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('jsonBodyParser', () => {
  it('parses a JSON body, also base64-encoded and in a +json media type', async () => {
    expect(await parse('{"title":"a","n":[1,2]}')).toEqual({ title: 'a', n: [1, 2] });
    expect(await parse(Buffer.from('{"a":1}').toString('base64'), { base64: true })).toEqual({ a: 1 });
    expect(await parse('{"a":1}', { type: 'application/merge-patch+json; charset=utf-8' })).toEqual({ a: 1 });
  });

  it('leaves a missing body undefined, for validation to name the required fields', async () => {
    expect(await parse(null)).toBeUndefined();
    expect(await parse('')).toBeUndefined();
  });

  it('refuses another media type with 415 and invalid JSON with 400', async () => {
    expect((await refusal(parse('a=1', { type: 'application/x-www-form-urlencoded' }))).status).toBe(415);
    const invalid = await refusal(parse('{"title": '));
    expect([invalid.status, invalid.code]).toEqual([400, 'rest_invalid_json']);
  });

  it('refuses a __proto__ key or a constructor with a prototype at any depth', async () => {
    for (const body of [
      '{"__proto__":{"polluted":true}}',
      '{"a":{"b":[{"__proto__":{}}]}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ]) {
      const refused = await refusal(parse(body));
      expect([refused.status, refused.code]).toEqual([400, 'rest_invalid_json']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A plain key named constructor is data.
    expect(await parse('{"constructor":"x"}')).toEqual({ constructor: 'x' });
  });
});
