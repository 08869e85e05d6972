import * as v from 'valibot';
import { documentedAs } from './openapi-metadata.ts';

/**
 * Reusable field schemas for contracts. Path and query values arrive as strings, so their schemas accept the
 * string form and transform it; body fields are typed JSON and use the plain schemas. Each string-parsed field
 * tells the OpenAPI generator the values it accepts (`documentedAs`: integers with their bounds, booleans), so the
 * document and generated clients speak numbers and booleans while the server still parses strings.
 */

/** Query integers: at most 15 digits, so arithmetic on them (page × per_page) is exact. */
const MAX_DIGITS = 15;
const LARGEST = 10 ** MAX_DIGITS - 1;
const SIGNED_DIGITS = new RegExp(`^-?\\d{1,${MAX_DIGITS}}$`);

/**
 * Ids: at most 16 digits (time ids, shared/db/ids.ts, have exactly 16) and at most Number.MAX_SAFE_INTEGER, so
 * every accepted id is exact as a JavaScript number.
 */
const ID_DIGITS = /^\d{1,16}$/;
const LARGEST_ID = Number.MAX_SAFE_INTEGER;

/** A positive integer id in a path (`/notifications/{id}`). */
export const idParam = () =>
  v.pipe(
    v.string(),
    v.regex(ID_DIGITS, 'must be a positive integer'),
    documentedAs({ type: 'integer', minimum: 1, maximum: LARGEST_ID }),
    v.transform(Number),
    v.minValue(1, 'must be a positive integer'),
    v.maxValue(LARGEST_ID, 'must be a positive integer'),
  );

/** An optional id in a query (`user_id`, `parent_id`, 0 allowed when `min` is 0): the same digits as `idParam`. */
export const idQuery = (options: { min: 0 | 1 }) => {
  const bounds = `must be an integer >= ${options.min}`;
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(ID_DIGITS, bounds),
      documentedAs({ type: 'integer', minimum: options.min, maximum: LARGEST_ID }),
      v.transform(Number),
      v.minValue(options.min, bounds),
      v.maxValue(LARGEST_ID, bounds),
    ),
  );
};

/** An integer query value (it arrives as a string) within bounds. */
const integerString = (options: { min: number; max?: number }) => {
  const bounds =
    options.max === undefined
      ? `must be an integer >= ${options.min}`
      : `must be an integer between ${options.min} and ${options.max}`;
  return v.pipe(
    v.string(),
    v.regex(SIGNED_DIGITS, bounds),
    documentedAs({
      type: 'integer',
      minimum: Math.max(options.min, -LARGEST),
      maximum: Math.min(options.max ?? LARGEST, LARGEST),
    }),
    v.transform(Number),
    v.minValue(options.min, bounds),
    v.maxValue(options.max ?? Number.MAX_SAFE_INTEGER, bounds),
  );
};

/** An optional integer query parameter with bounds (absent stays undefined). */
export const intQuery = (options: { min: number; max?: number }) => v.optional(integerString(options));

/** An integer query parameter with bounds and a default the contract applies (the handler always gets a number). */
export const intQueryWithDefault = (options: { min: number; max?: number; default: number }) =>
  v.optional(integerString(options), String(options.default));

/** `page` (>= 1, default 1) and `per_page` (1..100, default per endpoint): decisions.md, pagination. */
export const pageQuery = () => intQueryWithDefault({ min: 1, default: 1 });
export const perPageQuery = (defaultSize: number) =>
  intQueryWithDefault({ min: 1, max: 100, default: defaultSize });

/** A boolean query parameter: `true`/`false`/`1`/`0`. */
export const boolQuery = () =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0'], 'must be a boolean (true or false)'),
      documentedAs({
        type: 'boolean',
        description: 'Sent as `true` or `false` (`1` and `0` are accepted too).',
      }),
      v.transform((value) => value === 'true' || value === '1'),
    ),
  );

/** A boolean query parameter with a default, documented as the boolean it is (never as a string enum). */
export const boolQueryWithDefault = (defaultValue: boolean) =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0'], 'must be a boolean (true or false)'),
      documentedAs({
        type: 'boolean',
        default: defaultValue,
        description: 'Sent as `true` or `false` (`1` and `0` are accepted too).',
      }),
      v.transform((value) => value === 'true' || value === '1'),
    ),
    String(defaultValue) as 'true' | 'false',
  );

/** The opaque cursor carried by paginator B's `next_page_url`. */
export const cursorQuery = () =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]{1,2048}$/, 'must be a cursor from next_page_url'),
      v.description(
        'Opaque; copy it from `next_page_url`. Honoured only by the same list, filters and `per_page` it was ' +
          'issued for; a cursor this service did not issue is 400 `rest_invalid_param`.',
      ),
    ),
  );

/** `YYYY-MM-DD HH:MM:SS` (topics, quizzes, migrations). */
export const sqlDateTime = () =>
  v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DD HH:MM:SS'));

/** ISO 8601 `YYYY-MM-DDTHH:MM:SS` (profiles, media, notifications). */
export const isoDateTime = () =>
  v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DDTHH:MM:SS'));

export const integer = () => v.pipe(v.number(), v.integer());

/** A `message` answer (`{ message }`) shared by many mutations. */
export const messageResponse = () => v.object({ message: v.string() });
