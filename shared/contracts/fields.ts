import * as v from 'valibot';

/**
 * Reusable field schemas for contracts. Path and query values arrive as strings, so their schemas accept the
 * string form and transform it; body fields are typed JSON and use the plain schemas.
 */

const DIGITS = /^\d{1,15}$/;

/** A positive integer id in a path (`/notifications/{id}`). */
export const idParam = () =>
  v.pipe(
    v.string(),
    v.regex(DIGITS, 'must be a positive integer'),
    v.transform(Number),
    v.minValue(1, 'must be a positive integer'),
  );

/** An integer query value (it arrives as a string) within bounds. */
const integerString = (options: { min: number; max?: number }) => {
  const bounds =
    options.max === undefined
      ? `must be an integer >= ${options.min}`
      : `must be an integer between ${options.min} and ${options.max}`;
  return v.pipe(
    v.string(),
    v.regex(/^-?\d{1,15}$/, bounds),
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
      v.transform((value) => value === 'true' || value === '1'),
    ),
  );

/** The opaque cursor carried by paginator B's `next_page_url`. */
export const cursorQuery = () =>
  v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,2048}$/, 'must be a cursor from next_page_url')));

/** `YYYY-MM-DD HH:MM:SS` (topics, quizzes, migrations). */
export const sqlDateTime = () =>
  v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DD HH:MM:SS'));

/** ISO 8601 `YYYY-MM-DDTHH:MM:SS` (profiles, media, notifications). */
export const isoDateTime = () =>
  v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DDTHH:MM:SS'));

export const integer = () => v.pipe(v.number(), v.integer());

/** A `message` answer (`{ message }`) shared by many mutations. */
export const messageResponse = () => v.object({ message: v.string() });
