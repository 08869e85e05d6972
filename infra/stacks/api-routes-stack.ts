import { Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { API_BASE_PATH, type RouteEntry } from '../../shared/catalogue/index.ts';
import type { ApiFunction, LiveConnectionsAccess } from '../constructs/api-function.ts';
import {
  type CatalogueFunctionsProps,
  catalogueFunction,
  catalogueFunctionContext,
} from '../constructs/catalogue-function.ts';
import { routeSpec } from '../function-specs.ts';
import { acknowledge } from '../nag.ts';

export interface ApiRoutesStackProps extends StackProps, CatalogueFunctionsProps {
  /** The one HTTP API (api-stack.ts) these routes are added to. */
  readonly api: apigw.IHttpApi;
  /** Bound by every route that is not public. */
  readonly authorizer: apigw.IHttpRouteAuthorizer;
  /** `PUBLIC_BASE_URL` of the functions (the API stack's). */
  readonly publicBaseUrl: string;
  /** The live API's connections (api-stack.ts), for the routes with the grant `live`. */
  readonly live: LiveConnectionsAccess;
  /** One catalogue domain's routes. */
  readonly routes: readonly RouteEntry[];
}

const METHODS: Record<RouteEntry['method'], apigw.HttpMethod> = {
  GET: apigw.HttpMethod.GET,
  POST: apigw.HttpMethod.POST,
  PUT: apigw.HttpMethod.PUT,
  DELETE: apigw.HttpMethod.DELETE,
};

/**
 * One catalogue domain's routes on the shared HTTP API: per route a function (with its role, policy and log
 * group), the integration, the route and the gateway's invoke permission, about seven resources. A stack per
 * domain keeps every stack far below CloudFormation's 500-resource limit however the catalogue grows (the
 * app refuses a stack above 300, infra/resource-budget.ts), and a route never moves between stacks (its
 * function's fixed name could not be created in a new stack before the old one let it go).
 */
export class ApiRoutesStack extends Stack {
  readonly routeFunctions: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: ApiRoutesStackProps) {
    super(scope, id, props);
    const context = catalogueFunctionContext(props);
    const routeFunctions = new Map<string, ApiFunction>();
    for (const route of props.routes) {
      const fn = catalogueFunction(this, routeSpec(route), context);
      routeFunctions.set(route.operationId, fn);
      const isPublic = route.access === 'public';
      const httpRoute = new apigw.HttpRoute(this, `${route.operationId}Route`, {
        httpApi: props.api,
        routeKey: apigw.HttpRouteKey.with(`${API_BASE_PATH}${route.path}`, METHODS[route.method]),
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn.function),
        authorizer: isPublic ? new apigw.HttpNoneAuthorizer() : props.authorizer,
      });
      if (isPublic) {
        acknowledge(
          httpRoute,
          'AwsSolutions-APIG4',
          `Public by contract (access: public): ${route.operationId}.`,
        );
      }
    }
    this.routeFunctions = routeFunctions;
  }
}
