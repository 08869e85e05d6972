import { type ConversionConfig, type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type { AnySchema } from '../../contracts/operation.ts';

/**
 * valibot → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for the generated document.
 *
 * Requests and responses are both described from the schema's *input* side: that is the wire form. Path and query
 * values arrive as strings and are parsed by `transform` steps (fields.ts); the input side shows the accepted string
 * form (pattern, enum, default) and {@link describePipeline} adds, in words, the rules checked after parsing
 * (`must be an integer between 1 and 100`). Responses are what use cases return (`OperationResponse` is the
 * schema's input type) serialized as is. Kinds the converter cannot express (`transform`, `custom`, `check`) never
 * crash the generator (`errorMode: 'ignore'`): they simply add no constraint.
 */
const CONFIG: ConversionConfig = { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input' };

export type JsonObject = Record<string, unknown>;

/** Converts one schema; `$defs` are hoisted into `definitions` under a prefixed name and refs are rewritten. */
export function toSchema(
  schema: AnySchema,
  definitions: Record<string, JsonObject>,
  prefix: string,
): JsonObject {
  const converted = toJsonSchema(schema, CONFIG) as JsonObject;
  const { $schema: _dialect, $defs, ...rest } = converted;
  const rename = (name: string) => `${prefix}_${name}`;
  if ($defs && typeof $defs === 'object') {
    for (const [name, definition] of Object.entries($defs as Record<string, JsonSchema>)) {
      definitions[rename(name)] = rewriteRefs(definition, rename) as JsonObject;
    }
  }
  return rewriteRefs(rest, rename) as JsonObject;
}

function rewriteRefs(value: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
      result[key] = `#/components/schemas/${rename(item.slice('#/$defs/'.length))}`;
    } else {
      result[key] = rewriteRefs(item, rename);
    }
  }
  return result;
}

interface SchemaLike {
  readonly kind?: string;
  readonly type?: string;
  readonly wrapped?: SchemaLike;
  readonly pipe?: readonly ActionLike[];
  readonly entries?: Readonly<Record<string, SchemaLike>>;
}

interface ActionLike {
  readonly kind?: string;
  readonly type?: string;
  readonly requirement?: unknown;
  readonly message?: unknown;
  readonly description?: unknown;
}

const WRAPPERS = new Set([
  'optional',
  'exact_optional',
  'nullish',
  'nullable',
  'undefinedable',
  'non_optional',
]);

/** Strips optional/nullable wrappers. */
export function unwrap(schema: SchemaLike): SchemaLike {
  let current = schema;
  while (current.type && WRAPPERS.has(current.type) && current.wrapped) current = current.wrapped;
  return current;
}

/** The entries of an object schema (piped or wrapped), or undefined for other kinds. */
export function objectEntries(schema: AnySchema): Readonly<Record<string, AnySchema>> | undefined {
  const entries = unwrap(schema as SchemaLike).entries;
  return entries as Readonly<Record<string, AnySchema>> | undefined;
}

/**
 * In words, what a value must satisfy beyond its wire form: the `description` metadata, then every validation
 * that follows a `transform` (the converter stops at the first transform on the input side).
 */
export function describePipeline(schema: AnySchema): string | undefined {
  const parts: string[] = [];
  const visit = (node: SchemaLike) => {
    const inner = unwrap(node);
    let afterTransform = false;
    for (const action of inner.pipe ?? []) {
      if (action.kind === 'schema') {
        if (afterTransform) visit(action as SchemaLike);
        continue;
      }
      if (
        action.kind === 'metadata' &&
        action.type === 'description' &&
        typeof action.description === 'string'
      ) {
        parts.push(action.description);
      } else if (action.kind === 'transformation') {
        afterTransform = true;
      } else if (afterTransform && action.kind === 'validation') {
        parts.push(actionText(action));
      }
    }
  };
  visit(schema as SchemaLike);
  const unique = [...new Set(parts.filter((part) => part.length > 0))];
  return unique.length > 0 ? unique.join('; ') : undefined;
}

function actionText(action: ActionLike): string {
  if (typeof action.message === 'string') return action.message;
  const requirement =
    typeof action.requirement === 'number' || typeof action.requirement === 'string'
      ? ` ${action.requirement}`
      : '';
  return `${action.type ?? 'check'}${requirement}`;
}

/** Whether a converted object schema has required properties (an all-optional body may be omitted). */
export const hasRequired = (schema: JsonObject): boolean =>
  Array.isArray(schema.required) && (schema.required as unknown[]).length > 0;
