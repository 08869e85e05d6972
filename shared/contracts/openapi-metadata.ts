import * as v from 'valibot';

/**
 * What contracts tell the OpenAPI generator (shared/http/openapi/schema.ts) beyond what valibot itself expresses.
 * Plain valibot metadata under one `openapi` key, so validation is unaffected and contracts stay free of the
 * generator. Two hints:
 *
 * - `named(name)`: the schema is a shared shape; the document lists it once under `components.schemas[name]` and
 *   every use refers to it with `$ref`, so generated clients get one reusable type. Schemas built by the shared
 *   builders (envelopes.ts, members.ts) are named already, and so are the paginators of a named item.
 * - `documentedAs(json)`: the JSON Schema of the value as clients should produce it, where it differs from the
 *   string the server receives. Path and query values arrive as strings and are parsed by a `transform`; the
 *   document describes the accepted values (`type: integer` with bounds, `type: boolean`), not the digits pattern.
 *   Place it in the pipe right before the `transform` (or last): the generator describes the input side, which
 *   ends at the first transform.
 */
export interface OpenApiHint {
  /** Component name (`^[A-Za-z0-9._-]+$`). */
  readonly component?: string;
  /** Replaces the converted schema of the value. */
  readonly wire?: Readonly<Record<string, unknown>>;
}

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** `TInput` is inferred from the pipe the hint is placed in (as valibot's own `v.description`). */
export function named<TInput>(name: string | undefined): v.MetadataAction<TInput, { openapi: OpenApiHint }> {
  if (name !== undefined && !COMPONENT_NAME.test(name)) throw new Error(`Invalid component name "${name}"`);
  return v.metadata<TInput, { openapi: OpenApiHint }>({
    openapi: name === undefined ? {} : { component: name },
  });
}

export function documentedAs<TInput>(
  wire: Readonly<Record<string, unknown>>,
): v.MetadataAction<TInput, { openapi: OpenApiHint }> {
  return v.metadata<TInput, { openapi: OpenApiHint }>({ openapi: { wire } });
}

interface MetadataLike {
  readonly kind?: string;
  readonly type?: string;
  readonly metadata?: { readonly openapi?: OpenApiHint };
}

/** The hint a schema's own pipe carries (not its children's), if any. */
export function openApiHintOf(schema: unknown): OpenApiHint | undefined {
  const pipe = (schema as { pipe?: readonly MetadataLike[] } | null)?.pipe;
  if (!Array.isArray(pipe)) return undefined;
  for (const action of pipe) {
    if (action.kind === 'metadata' && action.type === 'metadata' && action.metadata?.openapi) {
      return action.metadata.openapi;
    }
  }
  return undefined;
}

/** The component name of a schema marked with {@link named}, if any. */
export const componentNameOf = (schema: unknown): string | undefined => openApiHintOf(schema)?.component;
