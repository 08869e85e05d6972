import fc from 'fast-check';

/**
 * Hostile values shared by the fuzz tests (test/api/paging-fuzz.test.ts, test/api/route-fuzz.settings.test.ts):
 * what a client could put where an integer, a string or a JSON document belongs.
 */

/** Strings that are almost, or not at all, integers. */
export const NOTABLE_INTEGERS = [
  '0',
  '-0',
  '-1',
  '1',
  '00',
  '01',
  '+1',
  '100',
  '101',
  '21474838',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '999999999999999',
  '1000000000000000',
  '99999999999999999999',
  '-2147483648',
  '1e9',
  '1.5',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  'null',
  '[]',
  '{}',
  '',
  ' ',
  '1 ',
  ' 1',
  '١٢',
  '𝟙',
  '1,2',
  '%00',
  '\u0000',
] as const;

/** Mostly garbage: every kind of value a client could put where an integer belongs (as query text). */
export const notAnInteger = fc.oneof(
  fc.constantFrom(...NOTABLE_INTEGERS),
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.integer({ min: 16, max: 4000 }).map((length) => '9'.repeat(length)),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

/** Keys that reach `Object.prototype` when code copies or merges objects carelessly. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
] as const;

/** Strings that break naive handling: controls, lone surrogates, direction marks, markup, huge lengths. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff',
    'a\ud83d',
    '\u202e\u2066override',
    '\ufeffbom',
    '😀'.repeat(64),
    'Z\u0351\u0352\u0353'.repeat(40),
    '<script>alert(1)</script>',
    `\${7*7}{{7*7}}`,
    "' OR '1'='1",
    '../../etc/passwd',
    '%00%2e%2e',
    '\r\nX-Injected: 1',
    'null',
    'undefined',
    '__proto__',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 1, max: 3 }).map((k) => 'x'.repeat(10 ** (k + 2) + 1)),
);

/** A JSON number literal JavaScript cannot hold exactly (sent as raw text, see `RawJson`). */
export const HUGE_NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e-400',
  '-0',
  '0.1e1',
  '1E+2',
] as const;

/**
 * A fragment of JSON text placed as is by `jsonText` (numbers JavaScript would round, lone keys JSON.stringify
 * would drop).
 */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** JSON text of a generated value: like JSON.stringify, with `RawJson` fragments kept verbatim. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Bodies that are not JSON, or JSON of the wrong shape for any body. */
export const MALFORMED_BODIES = [
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  '[1,2',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":undefined}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":1}{"b":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '[{}]',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
  '\u0000',
  'a=1&b=2',
] as const;
