import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type { AnySchema } from '../../contracts/operation.ts';
import { componentNameOf, type OpenApiHint } from '../../contracts/openapi-metadata.ts';

/**
 * valibot → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for the generated document.
 *
 * Requests and responses are both described from the schema's *input* side: that is the wire form. Path and query
 * values arrive as strings and are parsed by `transform` steps (fields.ts); their schemas carry a `documentedAs`
 * hint (shared/contracts/openapi-metadata.ts) with the values clients send (integers with bounds, booleans), which
 * replaces the string form here, and {@link describePipeline} adds, in words, the rules checked after parsing.
 * Schemas marked `named` become components referenced with `$ref`. Responses are what use cases return
 * (`OperationResponse` is the schema's input type) serialized as is. Kinds the converter cannot express
 * (`transform`, `custom`, `check`) never crash the generator (`errorMode: 'ignore'`): they simply add no constraint.
 */
export type JsonObject = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/**
 * Converts one schema. Named schemas found inside it are added to `components` (once per name; two different
 * schemas under one name are an error) and referenced; the converter's own definitions (recursive `lazy` schemas)
 * are added under `<prefix>_<id>`.
 */
export function toSchema(
  schema: AnySchema,
  components: Record<string, JsonObject>,
  prefix: string,
): JsonObject {
  const names = new Map<string, string>();
  const definitions: Record<string, AnySchema> = {};
  for (const [node, name] of namedSchemas(schema)) {
    const key = `named_${names.size}`;
    names.set(key, name);
    definitions[key] = node;
  }
  const componentOf = (referenceId: string) => names.get(referenceId) ?? `${prefix}_${referenceId}`;
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode: 'input',
    definitions,
    overrideRef: ({ referenceId }) => `${COMPONENTS}${componentOf(referenceId)}`,
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const hint = hintOfAction(valibotAction);
      if (!hint) return undefined;
      const { openapi: _hint, ...rest } = jsonSchema as JsonObject;
      if (!hint.wire) return rest;
      return { ...(rest.description ? { description: rest.description } : {}), ...hint.wire };
    },
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const wrapper = (valibotSchema as { type?: string }).type;
      if (wrapper === 'variant') return discriminated(valibotSchema, jsonSchema as JsonObject);
      if (wrapper === 'optional' || wrapper === 'exact_optional' || wrapper === 'undefinedable') {
        return withWireDefault(jsonSchema as JsonObject);
      }
      return undefined;
    },
  };
  const converted = toJsonSchema(schema, config) as JsonObject;
  const { $schema: _dialect, $defs, ...rest } = converted;
  for (const [key, definition] of Object.entries(($defs ?? {}) as Record<string, JsonObject>)) {
    const name = componentOf(key);
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) {
      throw new Error(`Two different schemas are named "${name}"`);
    }
    components[name] = definition;
  }
  return rest;
}

function hintOfAction(action: unknown): OpenApiHint | undefined {
  const candidate = action as { kind?: string; type?: string; metadata?: { openapi?: OpenApiHint } };
  return candidate.kind === 'metadata' && candidate.type === 'metadata'
    ? candidate.metadata?.openapi
    : undefined;
}

/**
 * A valibot `variant` (a union discriminated by a literal key) as OpenAPI states one: `oneOf` with a
 * `discriminator` whose mapping sends each literal to its member's component, so generated clients narrow on it.
 */
function discriminated(schema: unknown, json: JsonObject): JsonObject | undefined {
  const { key, options } = schema as { key: string; options: unknown[] };
  const members = json.anyOf as JsonObject[] | undefined;
  if (!members) return undefined;
  const mapping: Record<string, string> = {};
  options.forEach((option, index) => {
    const object = ((option as { pipe?: unknown[] }).pipe?.[0] ?? option) as {
      entries?: Record<string, { literal?: unknown }>;
    };
    const literal = object.entries?.[key]?.literal;
    const ref = members[index]?.$ref;
    if (typeof literal === 'string' && typeof ref === 'string') mapping[literal] = ref;
  });
  const { anyOf: _anyOf, ...rest } = json;
  return { ...rest, oneOf: members, discriminator: { propertyName: key, mapping } };
}

/**
 * A default given as the wire string (`'20'`) for a value documented as an integer or a boolean is stated as that
 * integer or boolean, as clients send it.
 */
function withWireDefault(schema: JsonObject): JsonObject | undefined {
  if (typeof schema.default !== 'string') return undefined;
  if (schema.type === 'integer' || schema.type === 'number')
    return { ...schema, default: Number(schema.default) };
  if (schema.type === 'boolean')
    return { ...schema, default: schema.default === 'true' || schema.default === '1' };
  return undefined;
}

/** Every schema marked `named` inside `schema` (itself included), each object once. */
function namedSchemas(schema: AnySchema): Map<AnySchema, string> {
  const found = new Map<AnySchema, string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const name = componentNameOf(node);
    if (name !== undefined) found.set(node as AnySchema, name);
    const like = node as SchemaLike & {
      item?: unknown;
      items?: readonly unknown[];
      options?: readonly unknown[];
      rest?: unknown;
      key?: unknown;
      value?: unknown;
    };
    for (const child of like.pipe ?? []) if (child.kind === 'schema' && child !== node) visit(child);
    visit(like.wrapped);
    for (const entry of Object.values(like.entries ?? {})) visit(entry);
    visit(like.item);
    for (const item of like.items ?? []) visit(item);
    for (const option of like.options ?? []) visit(option);
    visit(like.rest);
    visit(like.key);
    visit(like.value);
  };
  visit(schema);
  return found;
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
 * In words, what a value must satisfy beyond its wire form: every validation that follows a `transform` (the
 * converter stops at the first transform on the input side, so these are not in the converted schema).
 */
export function describePipeline(schema: AnySchema): string | undefined {
  const parts: string[] = [];
  const visit = (node: SchemaLike) => {
    const inner = unwrap(node);
    let afterTransform = false;
    for (const action of inner.pipe ?? []) {
      if (action.kind === 'schema') {
        if (afterTransform) visit(action as SchemaLike);
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
