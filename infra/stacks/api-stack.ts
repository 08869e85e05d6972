import { CfnOutput, Duration, Lazy, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_BASE_PATH, FALLBACK_ROUTE, type RouteEntry } from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import type { ApiFunction, GrantableResources } from '../constructs/api-function.ts';
import { ApiDomain } from '../constructs/api-domain.ts';
import { LiveApi } from '../constructs/live-api.ts';
import { catalogueFunction } from '../constructs/catalogue-function.ts';
import type { NativeTarget } from '../constructs/native-modules.ts';
import { AUTHORIZER_SPEC, routeSpec } from '../function-specs.ts';
import { acknowledge } from '../nag.ts';

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly resources: GrantableResources;
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
  /** Whose native binaries the assets carry (`'host'`: the local bundled mode's synth). */
  readonly nativeTarget?: NativeTarget;
}

/**
 * The HTTP API itself, shared by every domain's routes stack (api-routes-stack.ts): the API with CORS, its
 * throttled and logged `$default` stage, the Lambda authorizer, the catch-all, and the custom domain when the
 * stage has one. No catalogued route lives here, so this stack's size does not grow with the catalogue.
 */
export class ApiStack extends Stack {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly authorizerFunction: ApiFunction;
  /** Bound by every protected route; CDK creates it (in this stack, under the API) on the first binding. */
  readonly authorizer: apigw.IHttpRouteAuthorizer;
  readonly fallbackFunction: ApiFunction;
  /**
   * `PUBLIC_BASE_URL` of every API function: the custom domain when the stage has one, else the API's own
   * endpoint, plus `/v2` (decisions.md: `<origin>/v2`). Never a request header.
   */
  readonly publicBaseUrl: string;
  /** The live WebSocket API; route stacks hand `live.access` to the functions with the grant `live`. */
  readonly live: LiveApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;

    // The catch-all is created before the API whose default integration it is, so its `PUBLIC_BASE_URL` is lazy;
    // the functions' environment refers to the API, the API to none of them, so there is no cycle.
    const context = {
      config,
      resources: props.resources,
      bundle: props.bundle ?? true,
      nativeTarget: props.nativeTarget,
      publicBaseUrl: Lazy.string({ produce: () => this.publicBaseUrl }),
    };
    this.fallbackFunction = catalogueFunction(
      this,
      routeSpec(props.fallbackRoute ?? FALLBACK_ROUTE),
      context,
    );

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
        // `idempotency-key` makes writes retry-safe, `if-none-match` revalidates reads (issue 24).
        allowHeaders: ['authorization', 'content-type', 'x-request-id', 'idempotency-key', 'if-none-match'],
        // Clients correlate their reports with our logs through `x-request-id`; scripts read the validator, the
        // replay mark and when to try again.
        exposeHeaders: ['x-request-id', 'etag', 'idempotent-replayed', 'retry-after'],
        maxAge: Duration.hours(1),
      },
    });
    acknowledge(
      this.api.node.findChild('DefaultRoute'),
      'AwsSolutions-APIG4',
      'The catch-all only renders the 404 envelope for unknown routes; it reads no data.',
    );
    // The attribute, not the `https://{id}.execute-api…` string CDK would build: one GetAtt, which the local
    // bundled mode resolves to the local gateway (infra/local/bundled/).
    const endpoint = (this.api.node.defaultChild as apigw.CfnApi).attrApiEndpoint;
    const domain = config.customDomain && new ApiDomain(this, 'Domain', { domain: config.customDomain });
    this.publicBaseUrl = `${domain ? domain.url : endpoint}${API_BASE_PATH}`;

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
      ...(domain ? { domainMapping: { domainName: domain.domainName } } : {}),
    });

    // Reserved concurrency: a floor for the function every protected request runs first, so a burst on some
    // route or a worker backlog never takes the account's concurrency from it (infra/config.ts).
    this.authorizerFunction = catalogueFunction(
      this,
      { ...AUTHORIZER_SPEC, reservedConcurrency: config.reservedConcurrency.authorizer },
      context,
    );
    // The authorizer runs on EVERY protected request, even without an `Authorization` header: the contract
    // wants a 401 `rest_not_logged_in` JSON envelope, which only our code can render. With an identity source,
    // API Gateway itself rejects a request lacking it with a bare 401 body that an HTTP API cannot customise.
    // No identity source means no gateway-side caching (`resultsCacheTtl` must be 0); the authorizer remembers
    // only which credential a header matched and re-reads the user and that credential on every request.
    this.authorizer = new HttpLambdaAuthorizer('Authorizer', this.authorizerFunction.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    this.live = new LiveApi(this, 'Live', context);
    new CfnOutput(this, 'LiveUrl', { value: this.live.stage.url });
    new CfnOutput(this, 'ApiUrl', { value: domain ? domain.url : this.stage.url });
  }
}
