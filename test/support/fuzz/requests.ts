import fc from 'fast-check';
import { type Schema, type SchemaContext, fuzzedValue, validOf } from './schema-values.ts';
import { jsonText, MALFORMED_BODIES, PROTOTYPE_KEYS, RawJson } from './values.ts';

/**
 * One generated request for an operation of the served OpenAPI document: path parameters, query and body, each
 * drawn from the operation's own schemas (valid, boundary, hostile), with request-level faults on top: unknown
 * and prototype-named query parameters, repeated and undecodable ones, malformed JSON, another content type.
 */
export interface FuzzRequest {
  /** The path under the base, parameters filled in and encoded. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  readonly body?: string;
  readonly contentType?: string;
}

/**
 * Query values are capped: a request line over Node's 16 KB header limit is refused by the HTTP server before
 * the gateway sees it (431, no handler involved), so longer values would test Node, not the API.
 */
const MAX_QUERY_VALUE = 3000;
/** Path values are capped for the same reason, and never empty or `.`/`..` (see `pathText`). */
const MAX_PATH_VALUE = 1000;

/** A parameter's text: strings as they are, numbers as JSON would write them, anything else as JSON text. */
export function parameterText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  return jsonText(value);
}

/**
 * A path value that stays one segment of this route: an empty value or a dot segment would be removed or resolved
 * by the URL itself (`/feeds//comments`, `/feeds/../x`), so the request would address another route; those are
 * the catch-all's business (test/api/platform.test.ts), not this operation's.
 */
function pathText(value: unknown): string {
  const text = parameterText(value).slice(0, MAX_PATH_VALUE);
  return text === '' || /^(?:\.|%2e){1,2}$/i.test(text) ? `${text}x` : text;
}

/**
 * Percent-encodes one path segment. encodeURIComponent throws on a lone surrogate; a client can still send its
 * bytes (the 3-byte form UTF-8 forbids), so they are sent as such: the API must refuse them cleanly.
 */
function encodeSegment(text: string): string {
  let encoded = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      encoded += bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      encoded += encodeURIComponent(char);
    }
  }
  return encoded;
}

const RAW_QUERY_FRAGMENTS = ['%', '%zz', '%E0%A4%A', 'a[]=1', 'a[b]=1', '=', '&&', '+', 'x=%00'] as const;

function queryArbitrary(parameters: readonly Schema[], context: SchemaContext): fc.Arbitrary<string> {
  const named = parameters.map((parameter) =>
    fc.option(
      fuzzedValue(parameter.schema ?? {}, context).map((value) => [
        parameter.name as string,
        parameterText(value).slice(0, MAX_QUERY_VALUE),
      ]),
      { nil: undefined, freq: 2 },
    ),
  );
  const unknown = fc.oneof(
    { arbitrary: fc.constant([] as [string, string][]), weight: 6 },
    {
      arbitrary: fc.array(
        fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, 'unknown', ''), fc.string({ maxLength: 8 })),
        {
          maxLength: 2,
        },
      ),
      weight: 1,
    },
  );
  const repeat = fc.oneof(
    { arbitrary: fc.constant(false), weight: 8 },
    { arbitrary: fc.constant(true), weight: 1 },
  );
  const raw = fc.oneof(
    { arbitrary: fc.constant(''), weight: 10 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_FRAGMENTS), weight: 1 },
  );
  return fc.tuple(fc.tuple(...named), unknown, repeat, raw).map(([chosen, extra, repeated, fragment]) => {
    const search = new URLSearchParams();
    const pairs = chosen.filter((pair): pair is string[] => pair !== undefined);
    for (const [name, value] of [...pairs, ...extra]) search.append(name ?? '', value ?? '');
    // The same parameter twice: the gateway joins the values with a comma, as API Gateway does.
    const first = pairs[0];
    if (repeated && first) search.append(first[0] ?? '', first[1] ?? '');
    return [search.toString(), fragment].filter((part) => part !== '').join('&');
  });
}

type Body = { body?: string; contentType?: string };

function bodyArbitrary(method: string, operation: Schema, context: SchemaContext): fc.Arbitrary<Body> {
  // fetch cannot send a body with GET (and API Gateway drops it): nothing to vary.
  if (method === 'GET') return fc.constant<Body>({});
  const content = operation.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema as Schema | undefined;
  const malformed = fc
    .constantFrom(...MALFORMED_BODIES)
    .map((body): Body => ({ body, contentType: 'application/json' }));
  const none = fc.constant<Body>({});
  if (jsonSchema) {
    const json = fuzzedValue(jsonSchema, context).map(
      (value): Body => ({
        body: jsonText(value),
        contentType: 'application/json',
      }),
    );
    // Valid JSON that also names a prototype key at the top level.
    const polluted = fc
      .tuple(fuzzedValue(jsonSchema, context), fc.constantFrom(...PROTOTYPE_KEYS))
      .map(([value, key]): Body => {
        const base = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
        return {
          body: jsonText({ ...base, ...Object.fromEntries([[key, { polluted: true }]]) }),
          contentType: 'application/json',
        };
      });
    const otherType = fc
      .tuple(
        fuzzedValue(jsonSchema, context),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''),
      )
      .map(([value, contentType]): Body => ({ body: jsonText(value), contentType }));
    const jsonBodies = fc.oneof(
      { arbitrary: json, weight: 8 },
      { arbitrary: polluted, weight: 1 },
      { arbitrary: malformed, weight: 2 },
      { arbitrary: otherType, weight: 1 },
      { arbitrary: none, weight: 1 },
    );
    return content['multipart/form-data'] ? fc.oneof(jsonBodies, garbageForms()) : jsonBodies;
  }
  if (content['multipart/form-data']) return fc.oneof(garbageForms(), malformed, none);
  // No body declared: sending one anyway must change nothing.
  return fc.oneof({ arbitrary: none, weight: 8 }, { arbitrary: malformed, weight: 1 });
}

/** Garbage multipart parts and boundaries (media uploads): the handler must refuse them cleanly. */
function garbageForms(): fc.Arbitrary<Body> {
  return fc
    .tuple(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'multipart/form-data; boundary=',
      ),
    )
    .map(([body, contentType]): Body => ({ body: `--x\r\n${body}\r\n--x--\r\n`, contentType }));
}

/** Requests for one operation: `template` is the catalogued path (`/feeds/{feed_id}`). */
export function requestArbitrary(
  method: string,
  template: string,
  operation: Schema,
  context: SchemaContext,
): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.parameters ?? []) as Schema[];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const pathValues = fc.tuple(
    ...pathParameters.map((parameter) =>
      fuzzedValue(parameter.schema ?? {}, context).map(
        (value) => [parameter.name as string, pathText(value)] as const,
      ),
    ),
  );
  return fc
    .tuple(pathValues, queryArbitrary(queryParameters, context), bodyArbitrary(method, operation, context))
    .map(([values, query, body]) => {
      const byName = new Map<string, string>(values);
      const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
        encodeSegment(byName.get(name) ?? ''),
      );
      return { path, query, ...body };
    });
}

/**
 * Requests whose every part is valid for the operation's schemas (path and query parameters, a JSON body), which
 * the route fuzz sends until one gets past validation: even a short run (`npm run fuzz -- --cases 5`) reaches
 * every route's use case.
 */
export function validRequestArbitrary(
  template: string,
  operation: Schema,
  context: SchemaContext,
): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.parameters ?? []) as Schema[];
  const valued = (list: Schema[]) =>
    fc.tuple(
      ...list.map((parameter) =>
        validOf(parameter.schema ?? {}, context).map(
          (value) => [parameter.name as string, parameterText(value)] as const,
        ),
      ),
    );
  const jsonSchema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const body: fc.Arbitrary<Body> = jsonSchema
    ? validOf(jsonSchema, context).map((value) => ({
        body: jsonText(value),
        contentType: 'application/json',
      }))
    : fc.constant({});
  return fc
    .tuple(
      valued(parameters.filter((parameter) => parameter.in === 'path')),
      valued(parameters.filter((parameter) => parameter.in === 'query' && parameter.required)),
      body,
    )
    .map(([path, query, chosen]) => ({
      path: template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
        encodeSegment(pathText(new Map(path).get(name) ?? '')),
      ),
      query: new URLSearchParams(
        query.map(([name, value]): [string, string] => [name, value.slice(0, MAX_QUERY_VALUE)]),
      ).toString(),
      ...chosen,
    }));
}
