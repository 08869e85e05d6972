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

  it('INVITATION_LINK_TEMPLATE: prod links invitations to the client app (issue 21 item 8), dev to the API', () => {
    expect(stageConfig('prod', {}).invitationLinkTemplate).toContain('{token}');
    expect(stageConfig('dev', {}).invitationLinkTemplate).toBeUndefined();
    const { templates } = synthApp('real', 'prod');
    const functions = [templates.api, templates.workers].flatMap((stackTemplate) =>
      stackTemplate ? Object.values(resources(stackTemplate, 'AWS::Lambda::Function')) : [],
    );
    for (const fn of functions) {
      const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      expect(variables?.INVITATION_LINK_TEMPLATE).toBe(stageConfig('prod', {}).invitationLinkTemplate);
    }
  });
});
