import * as v from 'valibot';
import { integer } from './fields.ts';
import type { AnySchema } from './operation.ts';
import { componentNameOf, named } from './openapi-metadata.ts';

/**
 * The contract's shared envelopes. Each is a named OpenAPI component (`named`), so every operation that uses one
 * refers to the same schema and generated clients get one type per envelope. A paginator is named after its item
 * (`PaginatorB_Notification`) when the item schema is named; give list items a name (`named('Topic')`) so their
 * pages are reusable types too.
 */
function pageOf<TInput>(paginator: string, item: AnySchema) {
  const itemName = componentNameOf(item);
  return named<TInput>(itemName === undefined ? undefined : `${paginator}_${itemName}`);
}

/** Pagination block A (topics, quiz results): `pagination`. */
export const paginationBlockA = () =>
  v.pipe(
    v.object({ total: integer(), per_page: integer(), current_page: integer(), total_pages: integer() }),
    named('PaginationBlockA'),
  );

/** One entry of paginator B's `links`: Previous, a page number or "...", Next. */
const paginatorLinkSchema = v.pipe(
  v.object({ url: v.nullable(v.string()), label: v.string(), active: v.boolean() }),
  named('PaginatorLink'),
);

/** Paginator B (notifications, space user search, course comments). Missing page links are null. */
export const paginatorB = <T extends AnySchema>(item: T, options: { fromToMayBeString?: boolean } = {}) => {
  const fromTo = options.fromToMayBeString
    ? v.nullable(v.union([integer(), v.string()]))
    : v.nullable(integer());
  return v.pipe(
    v.object({
      current_page: integer(),
      data: v.array(item),
      first_page_url: v.string(),
      from: fromTo,
      last_page: integer(),
      last_page_url: v.string(),
      links: v.array(paginatorLinkSchema),
      next_page_url: v.pipe(
        v.nullable(v.string()),
        v.description(
          'The next page, with an opaque `cursor`: following it costs one page. Null on the last page.',
        ),
      ),
      path: v.string(),
      per_page: integer(),
      prev_page_url: v.nullable(v.string()),
      to: fromTo,
      total: integer(),
    }),
    pageOf(options.fromToMayBeString ? 'PaginatorBLoose' : 'PaginatorB', item),
  );
};

/** Paginator C (a user's feeds): the `feeds` object. */
export const paginatorC = <T extends AnySchema>(item: T) =>
  v.pipe(
    v.object({ current_page: integer(), data: v.array(item), total: integer(), per_page: integer() }),
    pageOf('PaginatorC', item),
  );

/** Paginator D (a user's media): `data` plus `meta`. */
export const paginatorD = <T extends AnySchema>(item: T) =>
  v.pipe(
    v.object({
      data: v.array(item),
      meta: v.object({ total: integer(), per_page: integer(), current_page: integer() }),
    }),
    pageOf('PaginatorD', item),
  );

/**
 * `data` of the standard error body: always `status`; validation errors add `params` (a list of missing names,
 * or a map of invalid name → message), `invalid_url` adds `field`. Other codes may add fields of their own.
 */
const errorDataSchema = v.pipe(
  v.objectWithRest(
    {
      status: v.pipe(integer(), v.description('The HTTP status, repeated.')),
      params: v.optional(
        v.pipe(
          v.union([v.array(v.string()), v.record(v.string(), v.string())]),
          v.description(
            '`rest_missing_callback_param`: the missing names. `rest_invalid_param`: each invalid name (dotted ' +
              'for nested fields) → a message. Long names are shortened and long lists cut.',
          ),
        ),
      ),
      field: v.optional(v.pipe(v.string(), v.description('The offending field (`invalid_url`).'))),
    },
    v.unknown(),
  ),
  named('ErrorData'),
);

/** The contract's standard error body. */
export const errorBodySchema = v.pipe(
  v.object({ code: v.string(), message: v.string(), data: errorDataSchema }),
  named('ErrorEnvelope'),
);

/** Quiz and migration errors carry only `code` and `message` (migration failure adds `details`). */
export const bareErrorBodySchema = v.pipe(
  v.object({
    code: v.string(),
    message: v.string(),
    details: v.optional(v.object({ step: v.string(), completed: integer(), total: integer() })),
  }),
  named('BareErrorEnvelope'),
);
