import type { AnySchema, Operation } from '../../contracts/operation.ts';
import { describePipeline, hasRequired, type JsonObject, objectEntries, toSchema } from './schema.ts';

/** The request side of an operation in the document: path and query parameters, and the body. */

export function parametersOf(
  schema: AnySchema | undefined,
  location: 'path' | 'query',
  schemas: Record<string, JsonObject>,
  prefix: string,
): JsonObject[] {
  if (!schema) return [];
  const converted = toSchema(schema, schemas, `${prefix}_${location}`);
  const properties = (converted.properties as Record<string, JsonObject> | undefined) ?? {};
  const required = new Set(Array.isArray(converted.required) ? (converted.required as string[]) : []);
  const entries = objectEntries(schema) ?? {};
  return Object.entries(properties).map(([name, property]) => {
    const entry = entries[name];
    // Rules checked after parsing are spelled out for values documented as strings; integers and booleans carry
    // theirs in the schema (bounds).
    const rules = entry && property.type === 'string' ? describePipeline(entry) : undefined;
    const description = [
      typeof property.description === 'string' ? property.description : undefined,
      rules ? `${capitalize(rules)}.` : undefined,
    ]
      .filter((part) => part !== undefined && part !== '')
      .filter((part, index, all) => all.indexOf(part) === index)
      .join(' ');
    // The description is the parameter's; the schema keeps only the value's rules.
    const { description: _lifted, ...schema } = property;
    return {
      name,
      in: location,
      required: location === 'path' ? true : required.has(name),
      ...(description ? { description } : {}),
      // A list in one parameter is comma-separated (`topics=1,2`), as the server reads it.
      ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
      schema,
    };
  });
}

export function requestBodyOf(
  operation: Operation,
  schemas: Record<string, JsonObject>,
  prefix: string,
): JsonObject {
  const schema = operation.body ? toSchema(operation.body, schemas, `${prefix}_body`) : { type: 'object' };
  if (operation.bodyKind !== 'multipart')
    return { required: hasRequired(schema), content: { 'application/json': { schema } } };
  // A multipart operation also takes its fields as JSON, without the file (the presigned path of uploads).
  return {
    required: true,
    content: { 'multipart/form-data': { schema }, 'application/json': { schema: withoutFileFields(schema) } },
  };
}

/** The schema's object with its binary (file) properties left out. */
function withoutFileFields(schema: JsonObject): JsonObject {
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  const kept = Object.entries(properties).filter(([, property]) => property.format !== 'binary');
  const names = new Set(kept.map(([name]) => name));
  const required = ((schema.required ?? []) as string[]).filter((name) => names.has(name));
  return { ...schema, properties: Object.fromEntries(kept), required };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
