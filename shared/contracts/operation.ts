import type * as v from 'valibot';

/** A schema of any valibot kind; contracts keep their precise types through the generics below. */
// biome-ignore lint/suspicious/noExplicitAny: valibot's generic schema type needs the wide form here.
export type AnySchema = v.GenericSchema<any, any>;

/** One documented error outcome of an operation: its status, its contract code and when it happens. */
export interface ErrorOutcome {
  readonly status: number;
  readonly code: string;
  readonly description: string;
}

/** An error outcome in one line: `errorOutcome(404, 'not_found', 'No topic has this id.')`. */
export const errorOutcome = <S extends number, C extends string>(status: S, code: C, description: string) =>
  ({ status, code, description }) as const;

/** The 400 of a required field that was not sent (`rest_missing_callback_param`, as WordPress names it). */
export const missingParam = (name: string) =>
  errorOutcome(400, 'rest_missing_callback_param', `\`${name}\` is missing.`);

/**
 * Error body styles of the contract: most endpoints answer `{ code, message, data: { status, … } }`; quiz and
 * migration endpoints answer only `{ code, message }` (migration failure adds `details`).
 */
export type ErrorEnvelope = 'standard' | 'bare';

/**
 * A success body that is not JSON (the API reference page and its script): the use case returns the text, which
 * is sent as is with this media type and these headers (errors stay JSON envelopes).
 */
export interface TextResponse {
  /** The `Content-Type` sent, e.g. `text/html; charset=utf-8`; its type/subtype names the OpenAPI media type. */
  readonly contentType: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An operation's contract: everything the handler factory validates and the OpenAPI document describes.
 * Method and path live in the catalogue (shared/catalogue); the two meet by `operationId`.
 */
export interface Operation<
  P extends AnySchema | undefined = AnySchema | undefined,
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  R extends AnySchema = AnySchema,
> {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: P;
  readonly query?: Q;
  /** JSON request body; unknown fields are rejected (use strict objects). */
  readonly body?: B;
  /** `json` (default) or `multipart` (the handler receives the raw form; see shared/http/multipart.ts). */
  readonly bodyKind?: 'json' | 'multipart';
  readonly response: R;
  /** Set when the success body is text in another media type than JSON (the response schema is then a string). */
  readonly textResponse?: TextResponse;
  /** 201 for operations that create a resource, else 200 (decisions.md, cross-cutting). */
  readonly successStatus?: 200 | 201;
  readonly errors: readonly ErrorOutcome[];
  readonly errorEnvelope?: ErrorEnvelope;
}

/**
 * A declared part's parsed output (defaults applied by its schema), or `undefined` for a part the operation does
 * not declare. `NonNullable` because the property is optional on `Operation`: a contract that declares `query`
 * gives its handler a `query` that is always there.
 */
type Out<S> = [NonNullable<S>] extends [AnySchema] ? v.InferOutput<NonNullable<S>> : undefined;

export interface OperationInput<O extends Operation> {
  readonly params: Out<O['params']>;
  readonly query: Out<O['query']>;
  readonly body: Out<O['body']>;
}

export type OperationResponse<O extends Operation> = v.InferInput<O['response']>;

/** Identity helper that keeps the literal types of a contract. */
export const defineOperation = <
  P extends AnySchema | undefined,
  Q extends AnySchema | undefined,
  B extends AnySchema | undefined,
  R extends AnySchema,
>(
  operation: Operation<P, Q, B, R>,
): Operation<P, Q, B, R> => operation;
