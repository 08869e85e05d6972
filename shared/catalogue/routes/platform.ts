import type { CatalogueRoute, RouteEntry } from './route.ts';

export const PLATFORM_ROUTES = [
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    entry: 'functions/http/platform/get-openapi-document.ts',
    grants: {},
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
  entry: 'functions/http/platform/route-not-found.ts',
  grants: {},
};
