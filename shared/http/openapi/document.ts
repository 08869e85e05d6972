import { API_BASE_PATH, ROUTES, type RouteEntry } from '../../catalogue/index.ts';
import { CONTRACTS } from '../../contracts/index.ts';
import type { Operation } from '../../contracts/operation.ts';
import { AUTHENTICATED_SECURITY, SECURITY_SCHEMES, SHARED_HEADERS } from './components.ts';
import { describeOperation } from './describe-operation.ts';
import { API_DESCRIPTION, TAG_DESCRIPTIONS } from './description.ts';
import { GATEWAY_ERROR_SCHEMA, gatewayResponseComponents, gatewayResponseIndex } from './gateway-answers.ts';
import { NOT_MODIFIED_RESPONSE } from './retry-safety.ts';
import type { JsonObject } from './schema.ts';

/**
 * The OpenAPI 3.1 document, generated from the route catalogue (method, path, access level) and the operation
 * contracts (schemas, documented errors). Nothing is written by hand per operation: what the contract says is
 * what the document says. Errors every operation shares are added from the route's shape:
 * - authenticated routes: 401 `rest_not_logged_in` / `invalid_credentials`, 403 `rest_forbidden` (inactive account),
 *   503 `service_unavailable` (the authorizer could not read its stores);
 * - routes with path, query or body inputs: 400 `rest_missing_callback_param` / `rest_invalid_param`, plus
 *   `rest_invalid_json` and 415 `rest_unsupported_media_type` when the body is JSON; a route other than GET that
 *   takes no body refuses one that is sent: 400 `rest_invalid_param` / `rest_invalid_json`, 415;
 * - every route: 500 `internal_error`; and the statuses the gateway may answer by itself (413, 429 with
 *   `Retry-After`, 500, 503), whose `GatewayError` bodies are documented apart (gateway-answers.ts), so every
 *   operation's error bodies carry a readable `code`.
 * Shared shapes (envelopes, paginators, resources marked `named` in the contracts) are components under
 * `components.schemas`, referenced with `$ref`. Every operation has a description: the contract's, or its summary,
 * followed by what its access level requires.
 */

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    securitySchemes: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    schemas: Record<string, JsonObject>;
  };
  'x-gateway-responses': JsonObject;
};

export function buildOpenApiDocument(
  routes: readonly RouteEntry[] = ROUTES,
  contracts: Readonly<Record<string, Operation>> = CONTRACTS,
): OpenApiDocument {
  const schemas: Record<string, JsonObject> = { GatewayError: GATEWAY_ERROR_SCHEMA };
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();

  for (const route of routes) {
    const operation = contracts[route.operationId];
    if (!operation) throw new Error(`No contract for catalogued operation "${route.operationId}"`);
    for (const tag of operation.tags) tags.add(tag);
    const pathItem = paths[route.path] ?? {};
    paths[route.path] = pathItem;
    pathItem[route.method.toLowerCase()] = describeOperation(route, operation, schemas);
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Community platform API', version: '2', description: API_DESCRIPTION },
    servers: [{ url: API_BASE_PATH, description: 'Relative to the origin the document was fetched from' }],
    tags: [...tags]
      .sort()
      .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations of the ${name} area.` })),
    security: AUTHENTICATED_SECURITY,
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      headers: SHARED_HEADERS,
      responses: { ...gatewayResponseComponents(), NotModified: NOT_MODIFIED_RESPONSE },
      schemas,
    },
    'x-gateway-responses': gatewayResponseIndex(),
  };
}

let memoized: OpenApiDocument | undefined;

/** The document of this deployment, built once per process. */
export function openApiDocument(): OpenApiDocument {
  memoized ??= buildOpenApiDocument();
  return memoized;
}
