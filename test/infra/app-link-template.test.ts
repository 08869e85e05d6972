import { describe, expect, it } from 'vitest';
import { stageConfig } from '#infra/config.ts';
import { resources, synthApp } from './synth-app.ts';

/**
 * Links in e-mails open the client app's pages: every function (API and workers: the digest worker writes links
 * too) gets the stage's `APP_LINK_TEMPLATE`, and the template names where the page's path goes.
 */
describe('APP_LINK_TEMPLATE', () => {
  it.each(['dev', 'prod'] as const)('is set on every %s function, with {path}', (stage) => {
    const template = stageConfig(stage, {}).appLinkTemplate;
    expect(template).toContain('{path}');
    const { templates } = synthApp('real', stage);
    const functions = [templates.api, templates.workers].flatMap((stackTemplate) =>
      stackTemplate ? Object.values(resources(stackTemplate, 'AWS::Lambda::Function')) : [],
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      expect(variables?.APP_LINK_TEMPLATE).toBe(template);
    }
  });
});
