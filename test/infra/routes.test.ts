import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stageConfig } from '#infra/config.ts';
import { API_BASE_PATH, LIVE_ROUTES } from '#shared/catalogue/index.ts';
import { functionName } from '#infra/naming.ts';
import { resources, synthApp } from './synth-app.ts';

describe.each(['real', 'synthetic'] as const)('API stack (%s catalogue)', (catalogue) => {
  const { routes, templates, functions } = synthApp(catalogue);
  const fns = resources(templates.api, 'AWS::Lambda::Function');
  const apiRoutes = Object.values(resources(templates.api, 'AWS::ApiGatewayV2::Route'));
  const routeByKey = new Map(apiRoutes.map((r) => [r.Properties?.RouteKey as string, r.Properties ?? {}]));

  it("should deploy one function per catalogued route, plus the authorizer, the catch-all and the live API's", () => {
    const names = Object.values(fns).map((f) => f.Properties?.FunctionName);
    for (const spec of functions.filter((f) => f.kind !== 'worker')) {
      expect(names).toContain(functionName('dev', spec.id));
    }
    // The live WebSocket API: its `$connect` authorizer and one function per live route (live-api.test.ts).
    expect(Object.keys(fns)).toHaveLength(routes.length + 2 + 1 + LIVE_ROUTES.length);
  });

  it('should give every function Node 24 on arm64 with active tracing and its own log group', () => {
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: expect.anything() },
      });
    }
  });

  it('should route every catalogued route, with the authorizer unless the route is public', () => {
    for (const route of routes) {
      const props = routeByKey.get(`${route.method} ${API_BASE_PATH}${route.path}`);
      expect(props, `${route.method} ${route.path}`).toBeDefined();
      if (route.access === 'public') {
        expect(props?.AuthorizationType).toBe('NONE');
      } else {
        expect(props?.AuthorizationType).toBe('CUSTOM');
        expect(props?.AuthorizerId).toBeDefined();
      }
    }
    expect(routeByKey.has('$default')).toBe(true);
  });

  // The gateway creates the authorizer resource when the first protected route binds it (the catalogue has some).
  it('should run the authorizer without an identity source or gateway cache (it renders the 401 itself)', () => {
    templates.api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
      IdentitySource: [],
    });
  });

  it('should answer CORS preflight exposing x-request-id, throttle and log the default stage', () => {
    templates.api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        // Issue 24: scripts send an Idempotency-Key and If-None-Match, and read the validator and replay mark.
        AllowHeaders: Match.arrayWith(['idempotency-key', 'if-none-match']),
        ExposeHeaders: ['x-request-id', 'etag', 'idempotent-replayed', 'retry-after'],
        AllowOrigins: [...stageConfig('dev', {}).corsOrigins],
      },
    });
    templates.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue() },
    });
  });
});
