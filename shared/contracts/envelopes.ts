import * as v from 'valibot';
import type { AnySchema } from './operation.ts';
import { integer } from './fields.ts';

/** Pagination block A (topics, quiz results): `pagination`. */
export const paginationBlockA = () =>
  v.object({ total: integer(), per_page: integer(), current_page: integer(), total_pages: integer() });

/** Paginator B (notifications, space user search, course comments). Missing page links are null. */
export const paginatorB = <T extends AnySchema>(item: T, options: { fromToMayBeString?: boolean } = {}) => {
  const fromTo = options.fromToMayBeString
    ? v.nullable(v.union([integer(), v.string()]))
    : v.nullable(integer());
  return v.object({
    current_page: integer(),
    data: v.array(item),
    first_page_url: v.string(),
    from: fromTo,
    last_page: integer(),
    last_page_url: v.string(),
    links: v.array(v.object({ url: v.nullable(v.string()), label: v.string(), active: v.boolean() })),
    next_page_url: v.nullable(v.string()),
    path: v.string(),
    per_page: integer(),
    prev_page_url: v.nullable(v.string()),
    to: fromTo,
    total: integer(),
  });
};

/** Paginator C (a user's feeds): the `feeds` object. */
export const paginatorC = <T extends AnySchema>(item: T) =>
  v.object({ current_page: integer(), data: v.array(item), total: integer(), per_page: integer() });

/** Paginator D (a user's media): `data` plus `meta`. */
export const paginatorD = <T extends AnySchema>(item: T) =>
  v.object({
    data: v.array(item),
    meta: v.object({ total: integer(), per_page: integer(), current_page: integer() }),
  });

/** The contract's standard error body. */
export const errorBodySchema = v.object({
  code: v.string(),
  message: v.string(),
  data: v.objectWithRest({ status: integer() }, v.unknown()),
});

/** Quiz and migration errors carry only `code` and `message` (migration failure adds `details`). */
export const bareErrorBodySchema = v.object({
  code: v.string(),
  message: v.string(),
  details: v.optional(v.object({ step: v.string(), completed: integer(), total: integer() })),
});
