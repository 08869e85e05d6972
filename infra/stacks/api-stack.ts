import { CfnOutput, Duration, Lazy, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_BASE_PATH, FALLBACK_ROUTE, ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import type { ApiFunction, GrantableResources } from '../constructs/api-function.ts';
import { catalogueFunction } from '../constructs/catalogue-function.ts';
import { AUTHORIZER_SPEC, routeSpec } from '../function-specs.ts';
import { acknowledge } from '../nag.ts';

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly resources: GrantableResources;
  /**
   * The routes to deploy.
   * @default ROUTES from shared/catalogue
   */
  readonly routes?: readonly RouteEntry[];
  /**
   * The catch-all behind the API's `$default` route (unknown paths and methods).
   * @default FALLBACK_ROUTE from shared/catalogue
   */
  readonly fallbackRoute?: RouteEntry;
  /**
   * Bundle functions with esbuild (`false`: inline stubs, for template-only synths).
   * @default true
   */
  readonly bundle?: boolean;
}

const METHODS: Record<RouteEntry['method'], apigw.HttpMethod> = {
  GET: apigw.HttpMethod.GET,
  POST: apigw.HttpMethod.POST,
  PUT: apigw.HttpMethod.PUT,
  DELETE: apigw.HttpMethod.DELETE,
};

/** The HTTP API: one function and one route per catalogued route, the authorizer, CORS, throttling, access logs. */
export class ApiStack extends Stack {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly authorizerFunction: ApiFunction;
  readonly fallbackFunction: ApiFunction;
  readonly routeFunctions: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    // Absolute links in responses (paginator URLs) start with the API's public base URL (decisions.md: `<origin>/v2`):
    // the stage's custom domain when it has one, else the API's own endpoint. Never a request header. Lazy, because
    // the catch-all function is created before the API whose default integration it is; the functions' environment
    // refers to the API, the API to none of them, so there is no cycle.
    const publicBaseUrl = Lazy.string({
      produce: () =>
        `${config.domainName ? `https://${config.domainName}` : this.api.apiEndpoint}${API_BASE_PATH}`,
    });
    const context = { config, resources: props.resources, bundle: props.bundle ?? true, publicBaseUrl };
    const fallback = props.fallbackRoute ?? FALLBACK_ROUTE;
    this.fallbackFunction = catalogueFunction(this, routeSpec(fallback), context);

    this.api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: id,
      createDefaultStage: false,
      // `$default`: anything no catalogued route matches gets the contract's 404 envelope, not API Gateway's.
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', this.fallbackFunction.function),
      corsPreflight: {
        allowOrigins: [...config.corsOrigins],
        allowMethods: [
          apigw.CorsHttpMethod.GET,
          apigw.CorsHttpMethod.POST,
          apigw.CorsHttpMethod.PUT,
          apigw.CorsHttpMethod.DELETE,
          apigw.CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: ['authorization', 'content-type', 'x-request-id'],
        // Clients correlate their reports with our logs through this header.
        exposeHeaders: ['x-request-id'],
        maxAge: Duration.hours(1),
      },
    });

    acknowledge(
      this.api.node.findChild('DefaultRoute'),
      'AwsSolutions-APIG4',
      'The catch-all only renders the 404 envelope for unknown routes; it reads no data.',
    );

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: config.throttle,
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs) },
    });

    this.authorizerFunction = catalogueFunction(this, AUTHORIZER_SPEC, context);
    // The authorizer runs on EVERY protected request, even without an `Authorization` header: the contract
    // wants a 401 `rest_not_logged_in` JSON envelope, which only our code can render. With an identity source,
    // API Gateway itself rejects a request lacking it with a bare 401 body that an HTTP API cannot customise.
    // No identity source means no gateway-side caching (`resultsCacheTtl` must be 0); the authorizer remembers
    // only which credential a header matched and re-reads the user and that credential on every request.
    const authorizer = new HttpLambdaAuthorizer('Authorizer', this.authorizerFunction.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    const routeFunctions = new Map<string, ApiFunction>();
    for (const route of props.routes ?? ROUTES) {
      const fn = catalogueFunction(this, routeSpec(route), context);
      routeFunctions.set(route.operationId, fn);
      const isPublic = route.access === 'public';
      const [httpRoute] = this.api.addRoutes({
        path: `${API_BASE_PATH}${route.path}`,
        methods: [METHODS[route.method]],
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn.function),
        authorizer: isPublic ? new apigw.HttpNoneAuthorizer() : authorizer,
      });
      if (isPublic && httpRoute) {
        acknowledge(
          httpRoute,
          'AwsSolutions-APIG4',
          `Public by contract (access: public): ${route.operationId}.`,
        );
      }
    }
    this.routeFunctions = routeFunctions;

    new CfnOutput(this, 'ApiUrl', { value: this.stage.url });
  }
}
