import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { LIVE_AUTHORIZER, LIVE_ROUTES, LIVE_STAGE } from '../../shared/catalogue/index.ts';
import type { FunctionSpec } from '../function-specs.ts';
import { acknowledge } from '../nag.ts';
import type { LiveConnectionsAccess } from './api-function.ts';
import { type CatalogueFunctionContext, catalogueFunction } from './catalogue-function.ts';

/** `$connect` → `liveConnect`: function ids (and names) of the live routes. */
const functionId = (routeKey: string) => `live${routeKey.slice(1, 2).toUpperCase()}${routeKey.slice(2)}`;

/**
 * The live API (README, Live updates): an API Gateway WebSocket API beside the HTTP API, with the catalogue's
 * `$connect` authorizer and one function per route (shared/catalogue/live.ts), on the stage `live`. `access` is
 * what a function with the catalogue grant `live` gets: ManageConnections on this API's `@connections` only.
 */
export class LiveApi extends Construct {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;
  readonly access: LiveConnectionsAccess;

  constructor(scope: Construct, id: string, context: CatalogueFunctionContext) {
    super(scope, id);
    const stack = Stack.of(this);
    this.api = new apigw.WebSocketApi(this, 'Api', { apiName: `${stack.stackName}-live` });
    this.access = {
      // The attribute (`wss://<api>.execute-api.<region>.amazonaws.com`), one GetAtt the local bundled mode resolves
      // to the local gateway; the functions reach the management API on the same host over HTTPS.
      endpoint: `${(this.api.node.defaultChild as apigw.CfnApi).attrApiEndpoint}/${LIVE_STAGE}`,
      connectionsArn: stack.formatArn({
        service: 'execute-api',
        resource: this.api.apiId,
        resourceName: `${LIVE_STAGE}/*/@connections/*`,
      }),
    };
    const withLive = { ...context, live: this.access };
    const authorizerFunction = catalogueFunction(
      this,
      { id: 'liveAuthorizer', kind: 'authorizer', ...LIVE_AUTHORIZER },
      withLive,
    );
    // No identity source: a browser connects with `?ticket=` and a script with `Authorization`, and a declared
    // source that is missing would be refused before the function could look at the other. No caching either
    // (tickets are single use).
    const authorizer = new WebSocketLambdaAuthorizer('LiveAuthorizer', authorizerFunction.function, {
      identitySource: [],
    });
    for (const route of LIVE_ROUTES) {
      const spec: FunctionSpec = { id: functionId(route.routeKey), kind: 'route', ...route };
      const fn = catalogueFunction(this, spec, withLive);
      const added = this.api.addRoute(route.routeKey, {
        integration: new WebSocketLambdaIntegration(`${spec.id}Integration`, fn.function),
        ...(route.routeKey === '$connect' ? { authorizer } : {}),
        // `$default` answers pings on the same connection (a two-way route).
        ...(route.routeKey === '$default' ? { returnResponse: true } : {}),
      });
      if (route.routeKey !== '$connect') {
        acknowledge(
          added,
          'AwsSolutions-APIG4',
          'WebSocket APIs authorize at $connect only; later routes run on the connection it authorized.',
        );
      }
    }
    this.stage = new apigw.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: LIVE_STAGE,
      autoDeploy: true,
    });
    acknowledge(
      this.stage,
      'AwsSolutions-APIG1',
      'Each route is a function that logs its invocations (connect, disconnect, messages) with the request id.',
    );
  }
}
