import { describe, expect, it } from 'vitest';
import { type Grants, LIVE_ROUTES, LIVE_STAGE, QUEUES, ROUTES } from '#shared/catalogue/index.ts';
import { functionName } from '#infra/naming.ts';
import { type CfnResource, resources, synthApp } from './synth-app.ts';

/** The live WebSocket API as synthesized: its routes, the `$connect` authorizer, and who may manage connections. */

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

describe('live API (real catalogue)', () => {
  const app = synthApp('real');
  const template = app.templates.api;
  const [apiId, api] = Object.entries(resources(template, 'AWS::ApiGatewayV2::Api')).find(
    ([, resource]) => resource.Properties?.ProtocolType === 'WEBSOCKET',
  ) ?? [undefined, undefined];
  const routes = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).filter(
    (route) => JSON.stringify(route.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
  );

  it('is a WebSocket API selecting routes by action, on the stage `live`', () => {
    expect(api?.Properties?.RouteSelectionExpression).toBe('$request.body.action');
    const stages = Object.values(resources(template, 'AWS::ApiGatewayV2::Stage')).filter(
      (stage) => JSON.stringify(stage.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
    );
    expect(stages.map((stage) => stage.Properties?.StageName)).toEqual([LIVE_STAGE]);
  });

  it('has the catalogue routes, one function each, and the Lambda authorizer on $connect only', () => {
    expect(routes.map((route) => route.Properties?.RouteKey).sort()).toEqual(
      LIVE_ROUTES.map((route) => route.routeKey).sort(),
    );
    const authorizers = Object.entries(resources(template, 'AWS::ApiGatewayV2::Authorizer')).filter(
      ([, authorizer]) => JSON.stringify(authorizer.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
    );
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0] as [string, CfnResource];
    expect(authorizer.Properties?.AuthorizerType).toBe('REQUEST');
    // No identity source: header or ticket, whichever the client can send, reaches the function.
    expect(authorizer.Properties?.IdentitySource ?? []).toEqual([]);
    for (const route of routes) {
      const isConnect = route.Properties?.RouteKey === '$connect';
      expect(route.Properties?.AuthorizationType ?? 'NONE').toBe(isConnect ? 'CUSTOM' : 'NONE');
      if (isConnect) expect(route.Properties?.AuthorizerId).toEqual({ Ref: authorizerId });
    }
    const integrations = Object.values(resources(template, 'AWS::ApiGatewayV2::Integration')).filter(
      (integration) => JSON.stringify(integration.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
    );
    expect(
      new Set(integrations.map((integration) => JSON.stringify(integration.Properties?.IntegrationUri))).size,
    ).toBe(LIVE_ROUTES.length);
  });

  it("grants execute-api:ManageConnections on this API's @connections only, to the functions that post", () => {
    const posting = new Set([
      ...ROUTES.filter((route) => route.grants.live).map((route) => functionName('dev', route.operationId)),
      ...QUEUES.filter((queue) => (queue.grants as Grants).live).map((queue) =>
        functionName('dev', `${queue.name}Worker`),
      ),
      ...(LIVE_ROUTES.some((route) => route.routeKey === '$connect')
        ? [functionName('dev', 'liveConnect')]
        : []),
    ]);
    const policies = [...app.byStack.values()].flatMap((stack) =>
      Object.values(resources(stack, 'AWS::IAM::Policy')).map((policy) => ({ stack, policy })),
    );
    const grantsFound = new Map<string, string>();
    for (const { stack, policy } of policies) {
      const statements =
        (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [];
      const live = statements.filter((s) => asArray(s.Action).includes('execute-api:ManageConnections'));
      if (live.length === 0) continue;
      expect(live).toHaveLength(1);
      const [statement] = live as [Statement];
      expect(statement.Effect).toBe('Allow');
      expect(asArray(statement.Action)).toEqual(['execute-api:ManageConnections']);
      const resource = JSON.stringify(statement.Resource);
      expect(resource).toContain(`/${LIVE_STAGE}/*/@connections/*`);
      expect(resource).not.toMatch(/execute-api:[^"]*:\*"/);
      // The role's function, by name.
      const [roleRef] = (policy.Properties?.Roles as Array<{ Ref: string }>) ?? [];
      const fn = Object.values(resources(stack, 'AWS::Lambda::Function')).find((candidate) =>
        JSON.stringify(candidate.Properties?.Role).includes(roleRef?.Ref ?? '?'),
      );
      grantsFound.set(String(fn?.Properties?.FunctionName), resource);
    }
    expect([...grantsFound.keys()].sort()).toEqual([...posting].sort());
    // Every grant names the live API: by Ref in its own stack, by an import of its id elsewhere.
    for (const resource of grantsFound.values()) expect(resource).toMatch(new RegExp(`${apiId}|Live`));
  });
});
