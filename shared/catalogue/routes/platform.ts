import { routeEntryFile } from './entry-file.ts';
import type { CatalogueRoute, RouteEntry } from './route.ts';

/**
 * The renderer of the API reference page: Redoc's standalone bundle from the pinned `redoc` package. The CDK
 * bundling copies it beside the function's code (`bundleFiles`); the local stack reads it from node_modules.
 */
export const REFERENCE_SCRIPT_FILE = 'node_modules/redoc/bundles/redoc.standalone.js';

export const PLATFORM_ROUTES = [
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    grants: {},
  },
  {
    operationId: 'getApiReference',
    method: 'GET',
    path: '/docs',
    access: 'public',
    grants: {},
  },
  {
    operationId: 'getApiReferenceScript',
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    access: 'public',
    grants: {},
    bundleFiles: [REFERENCE_SCRIPT_FILE],
  },
] as const satisfies readonly CatalogueRoute[];

/**
 * The catch-all (`$default` in the cloud): unknown paths, and known paths with a method they do not serve, get
 * the contract's 404 `rest_no_route` envelope instead of API Gateway's bare `{"message":"Not Found"}`.
 */
export const FALLBACK_ROUTE: RouteEntry = {
  operationId: 'routeNotFound',
  method: 'GET',
  path: '/{proxy+}',
  access: 'public',
  entry: routeEntryFile('platform', 'routeNotFound'),
  grants: {},
};
