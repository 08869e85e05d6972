import fc from 'fast-check';
import { HUGE_NUMBER_LITERALS, hostileString, PROTOTYPE_KEYS, RawJson } from './values.ts';

/**
 * Values generated from a JSON Schema of the served OpenAPI document (the subset the generator emits: type, enum,
 * const, anyOf/oneOf/allOf, bounds, lengths, pattern, properties, items, `$ref` into `components.schemas`).
 * Each value is valid, on a boundary (the limit and one past it), or hostile (another type, a huge number, a
 * long or broken string, a prototype key), so every layer of a route is reached: validation, the use case, storage.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects from the served document.
export type Schema = Record<string, any>;

export interface SchemaContext {
  /** `components.schemas` of the document, for `$ref`. */
  readonly components: Readonly<Record<string, Schema>>;
  /** Integers worth hitting because something exists under them (the callers, seeded resources). */
  readonly knownIds: readonly number[];
}

const MAX_DEPTH = 4;

/** Any value of another type than the schema asks for, or one that JavaScript cannot hold exactly. */
export const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', [], {}, [null], { '': '' }),
  fc.constantFrom(...HUGE_NUMBER_LITERALS).map((text) => new RawJson(text)),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 31, -(2 ** 31), 1e300, -1e-300),
  hostileString,
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => Object.fromEntries([[key, { polluted: true }]])),
);

export function resolve(schema: Schema, context: SchemaContext): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = { ...(context.components[name] ?? {}), ...current, $ref: undefined };
  }
  return current;
}

/** A value for the schema: mostly valid, sometimes on a boundary, sometimes hostile. */
export function fuzzedValue(schema: Schema, context: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  const boundary = boundaryOf(resolve(schema, context), context);
  return fc.oneof(
    { arbitrary: validOf(schema, context, depth), weight: 6 },
    ...(boundary ? [{ arbitrary: boundary, weight: 2 }] : []),
    { arbitrary: anyHostile, weight: 2 },
  );
}

/** A value the schema accepts (as far as generation can tell: patterns are honoured, formats are not). */
export function validOf(raw: Schema, context: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw, context);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((item) => validOf(item, context, depth)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged = Object.assign({}, ...schema.allOf.map((item: Schema) => resolve(item, context)));
    return validOf(merged, context, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return integerOf(schema, context);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      return stringOf(schema);
    case 'array':
      return arrayOf(schema, context, depth);
    case 'object':
      return objectOf(schema, context, depth);
    default:
      return depth >= MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function integerOf(schema: Schema, context: SchemaContext): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER);
  const known = context.knownIds.filter((id) => id >= min && id <= max);
  return fc.oneof(
    fc.integer({ min, max: Math.min(max, min + 20) }),
    fc.integer({ min, max }),
    ...(known.length > 0 ? [fc.constantFrom(...known), fc.constantFrom(...known)] : []),
  );
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, 60);
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((value) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity));
  }
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  return fc.oneof(
    fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }),
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, maxLength) }),
  );
}

function arrayOf(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<unknown[]> {
  const items = schema.items ?? {};
  if (depth >= MAX_DEPTH) return fc.constant([]);
  return fc.array(validOf(items, context, depth + 1), {
    minLength: schema.minItems ?? 0,
    maxLength: Math.min(schema.maxItems ?? 4, 4),
  });
}

function objectOf(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<object> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(schema.required ?? []);
  const open = schema.additionalProperties && typeof schema.additionalProperties === 'object';
  if (depth >= MAX_DEPTH) return fc.constant({});
  const fields = Object.entries(properties).map(([name, property]) =>
    fc
      .tuple(fc.constant(name), validOf(property, context, depth + 1), fc.boolean())
      .map(([key, value, keep]) => (required.has(key) || keep ? [[key, value] as const] : [])),
  );
  const extra = open
    ? fc.array(
        fc.tuple(
          // Free-form keys (a map such as quiz answers): any text, or a key that names a prototype member.
          fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...PROTOTYPE_KEYS)),
          validOf(schema.additionalProperties, context, depth + 1),
        ),
        { maxLength: 3 },
      )
    : fc.constant([] as [string, unknown][]);
  return fc.tuple(fc.tuple(...fields), extra).map(([chosen, more]) =>
    // fromEntries makes every key an own property, `__proto__` included (an object literal would set the prototype).
    Object.fromEntries([...chosen.flat(), ...more]),
  );
}

/** The limit, and one past it, of each bound the schema declares; undefined when it declares none. */
function boundaryOf(schema: Schema, context: SchemaContext): fc.Arbitrary<unknown> | undefined {
  const values: unknown[] = [];
  if (typeof schema.minimum === 'number') values.push(schema.minimum, schema.minimum - 1);
  if (typeof schema.maximum === 'number') values.push(schema.maximum, schema.maximum + 1);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    values.push('x'.repeat(schema.minLength), 'x'.repeat(schema.minLength - 1));
  }
  if (typeof schema.maxLength === 'number') {
    // Characters outside the basic plane: a limit counted in UTF-16 units or bytes differs from one in characters.
    values.push(
      'x'.repeat(schema.maxLength),
      'x'.repeat(schema.maxLength + 1),
      '😀'.repeat(schema.maxLength),
    );
  }
  if (typeof schema.maxItems === 'number' && schema.items) {
    const item = fc.sample(validOf(schema.items, context, MAX_DEPTH - 1), { numRuns: 1, seed: 1 })[0];
    values.push(Array.from({ length: schema.maxItems + 1 }, () => item));
  }
  if (schema.type === 'integer') values.push(0, -1, 1.5, '1');
  return values.length > 0 ? fc.constantFrom(...values) : undefined;
}
