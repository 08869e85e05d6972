import * as v from 'valibot';
import { defineOperation } from './operation.ts';

export const getOpenApiDocument = defineOperation({
  operationId: 'getOpenApiDocument',
  summary: 'The OpenAPI 3.1 document of this API',
  description:
    'Generated from the route catalogue and the operation contracts; served without authentication.',
  tags: ['Platform'],
  response: v.objectWithRest({ openapi: v.literal('3.1.0') }, v.unknown()),
  errors: [],
});

export const routeNotFound = defineOperation({
  operationId: 'routeNotFound',
  summary: 'Any path or method the API does not serve',
  tags: ['Platform'],
  response: v.never(),
  errors: [
    {
      status: 404,
      code: 'rest_no_route',
      description: 'No route was found matching the URL and request method.',
    },
  ],
});

/**
 * The API reference page and the renderer it loads, both served by the API itself (no third-party CDN, no
 * external font): the page works offline and the same in the local stack and the cloud. The policy lets the page
 * load only this origin's script and document; Redoc adds its styles inline and runs its search in a blob worker.
 */
const REFERENCE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const getApiReference = defineOperation({
  operationId: 'getApiReference',
  summary: 'The API reference page',
  description:
    'An HTML page that renders the OpenAPI document (`/v2/openapi.json`) with Redoc, whose script this API ' +
    'serves too (`/v2/docs/redoc.standalone.js`); nothing is loaded from another origin. Served without ' +
    'authentication.',
  tags: ['Platform'],
  response: v.string(),
  textResponse: {
    contentType: 'text/html; charset=utf-8',
    headers: { 'content-security-policy': REFERENCE_PAGE_POLICY, 'cache-control': 'public, max-age=300' },
  },
  errors: [],
});

export const getApiReferenceScript = defineOperation({
  operationId: 'getApiReferenceScript',
  summary: "The reference page's renderer (Redoc's standalone bundle)",
  description:
    'The JavaScript the reference page loads: the standalone bundle of the pinned `redoc` package, served as ' +
    'published. Served without authentication.',
  tags: ['Platform'],
  response: v.string(),
  textResponse: {
    contentType: 'text/javascript; charset=utf-8',
    headers: { 'cache-control': 'public, max-age=86400' },
  },
  errors: [],
});
