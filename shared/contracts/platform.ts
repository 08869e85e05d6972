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
