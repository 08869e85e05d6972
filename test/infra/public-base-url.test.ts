import { describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '#shared/catalogue/index.ts';
import { stageConfig } from '#infra/config.ts';
import { resources, synthApp } from './synth-app.ts';

/**
 * Functions build absolute links (paginator URLs) from `PUBLIC_BASE_URL`, never from request headers: every API
 * function gets it, from the stage's custom domain when configured, else from the HTTP API's own endpoint.
 */
type Variables = Record<string, unknown>;

function variablesOfApiFunctions(stage: 'dev' | 'prod'): Variables[] {
  const { templates } = synthApp('real', stage);
  return Object.values(resources(templates.api, 'AWS::Lambda::Function')).map(
    (fn) => (fn.Properties?.Environment as { Variables?: Variables } | undefined)?.Variables ?? {},
  );
}

describe('PUBLIC_BASE_URL', () => {
  it('is the custom domain and /v2 when the stage has one', () => {
    const domain = stageConfig('prod', {}).customDomain?.name;
    expect(domain).toBeDefined();
    const variables = variablesOfApiFunctions('prod');
    expect(variables.length).toBeGreaterThan(0);
    for (const vars of variables) expect(vars.PUBLIC_BASE_URL).toBe(`https://${domain}${API_BASE_PATH}`);
  });

  it("is the HTTP API's own endpoint and /v2 otherwise", () => {
    expect(stageConfig('dev', {}).customDomain).toBeUndefined();
    const { templates } = synthApp('real', 'dev');
    const [apiId] = Object.keys(resources(templates.api, 'AWS::ApiGatewayV2::Api'));
    // Functions of the domain stacks import the endpoint the API stack exports.
    const exported = Object.values(
      (templates.api.toJSON().Outputs ?? {}) as Record<string, { Value: unknown; Export?: { Name: string } }>,
    )
      .filter((output) => JSON.stringify(output.Value) === `{"Fn::GetAtt":["${apiId}","ApiEndpoint"]}`)
      .map((output) => output.Export?.Name);
    expect(exported).toHaveLength(1);
    const variables = variablesOfApiFunctions('dev');
    for (const vars of variables) {
      const text = JSON.stringify(vars.PUBLIC_BASE_URL);
      expect(
        text.includes(`{"Fn::GetAtt":["${apiId}","ApiEndpoint"]}`) ||
          text.includes(`{"Fn::ImportValue":"${exported[0]}"}`),
        text,
      ).toBe(true);
      expect(text).toMatch(new RegExp(`${API_BASE_PATH}"\\]\\]\\}$`));
    }
  });
});
