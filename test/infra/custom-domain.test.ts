import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stageConfig } from '#infra/config.ts';
import { functionName } from '#infra/naming.ts';
import { resources, synthApp } from './synth-app.ts';

/** The custom domain is the app's own (infra/constructs/api-domain.ts), and limits reserved where they matter. */
describe('custom domain', () => {
  it('creates the certificate (DNS-validated in the configured zone), the domain, its mapping and aliases', () => {
    const domain = stageConfig('prod', {}).customDomain;
    if (!domain) throw new Error('prod names a domain');
    const { templates } = synthApp('real', 'prod');
    templates.api.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: domain.name,
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: domain.name, HostedZoneId: domain.hostedZoneId }],
    });
    templates.api.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: domain.name,
      DomainNameConfigurations: [Match.objectLike({ SecurityPolicy: 'TLS_1_2' })],
    });
    templates.api.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: '$default' });
    for (const type of ['A', 'AAAA']) {
      templates.api.hasResourceProperties('AWS::Route53::RecordSet', {
        Type: type,
        HostedZoneId: domain.hostedZoneId,
        Name: `${domain.name}.`,
      });
    }
  });

  it('creates none of it for a stage without a domain', () => {
    const { templates } = synthApp('real', 'dev');
    for (const type of [
      'AWS::CertificateManager::Certificate',
      'AWS::ApiGatewayV2::DomainName',
      'AWS::ApiGatewayV2::ApiMapping',
      'AWS::Route53::RecordSet',
    ]) {
      expect(Object.keys(resources(templates.api, type)), type).toHaveLength(0);
    }
  });
});

describe('reserved concurrency', () => {
  it.each(['dev', 'prod'] as const)(
    'reserves the authorizer its floor and caps the migrations worker (%s)',
    (stage) => {
      const { templates } = synthApp('real', stage);
      const reserved = (template: typeof templates.api, name: string) =>
        Object.values(resources(template, 'AWS::Lambda::Function')).find(
          (fn) => fn.Properties?.FunctionName === functionName(stage, name),
        )?.Properties?.ReservedConcurrentExecutions;
      expect(reserved(templates.api, 'authorizer')).toBe(
        stageConfig(stage, {}).reservedConcurrency.authorizer,
      );
      if (stage === 'prod') expect(reserved(templates.api, 'authorizer')).toBe(100);
      if (!templates.workers) throw new Error('the real catalogue has workers');
      expect(reserved(templates.workers, 'migrationsWorker')).toBe(4);
      // Nothing else reserves: every other function shares the unreserved pool.
      expect(reserved(templates.api, 'listFeeds')).toBeUndefined();
    },
  );
});
