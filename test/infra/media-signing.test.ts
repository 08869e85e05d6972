import { Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { functionName } from '#infra/naming.ts';
import { resources, synthApp } from './synth-app.ts';

/**
 * Issue 21 item 1: media of private and secret spaces (`private/*`) reach browsers only through short-lived signed
 * URLs: CloudFront's in a stage with a signing key (prod), whose private half is a secret that only the functions
 * answering with media URLs may read; presigned S3 GETs in a stage without one (dev, and the local stack).
 */
const SIGNERS = ['completeMediaUpload', 'getMedia', 'listProfileMedia', 'uploadMedia'];

type Env = { Environment?: { Variables?: Record<string, unknown> } } | undefined;
type Statement = { Action: string | string[]; Resource: unknown };

function functionsOf(templates: readonly (Template | undefined)[]) {
  return templates.flatMap((template) =>
    template
      ? Object.entries(resources(template, 'AWS::Lambda::Function')).map(([id, fn]) => ({ id, fn, template }))
      : [],
  );
}

/** The function (by name) whose role may read a secret matching `secret`, from every policy of the templates. */
function secretReaders(templates: readonly (Template | undefined)[], secret: RegExp): string[] {
  const readers: string[] = [];
  for (const { fn, template } of functionsOf(templates)) {
    const role = (fn.Properties?.Role as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
    for (const policy of Object.values(resources(template, 'AWS::IAM::Policy'))) {
      if (!role || !JSON.stringify(policy.Properties?.Roles).includes(`"${role}"`)) continue;
      const statements =
        (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [];
      const reads = statements.some(
        (statement) =>
          [statement.Action].flat().includes('secretsmanager:GetSecretValue') &&
          secret.test(JSON.stringify(statement.Resource)),
      );
      if (reads) readers.push(String(fn.Properties?.FunctionName));
    }
  }
  return [...new Set(readers)].sort();
}

describe('signed URLs of private media (CloudFront key group, key in Secrets Manager)', () => {
  const prod = synthApp('real', 'prod');
  const dev = synthApp('real', 'dev');
  const functionTemplates = (app: typeof prod) => [app.templates.api, app.templates.workers];

  it('serves private/* only to URLs signed by the key group, through the same origin access control', () => {
    const { data } = prod.templates;
    data.resourceCountIs('AWS::CloudFront::PublicKey', 1);
    data.hasResourceProperties('AWS::CloudFront::PublicKey', {
      PublicKeyConfig: Match.objectLike({
        EncodedKey: Match.stringLikeRegexp('^-----BEGIN PUBLIC KEY-----'),
      }),
    });
    const [keyGroupId] = Object.keys(resources(data, 'AWS::CloudFront::KeyGroup'));
    const [publicKeyId] = Object.keys(resources(data, 'AWS::CloudFront::PublicKey'));
    data.hasResourceProperties('AWS::CloudFront::KeyGroup', {
      KeyGroupConfig: Match.objectLike({ Items: [{ Ref: publicKeyId }] }),
    });
    const [distribution] = Object.values(resources(data, 'AWS::CloudFront::Distribution'));
    const config = distribution?.Properties?.DistributionConfig as {
      Origins: { Id: string; OriginAccessControlId?: unknown }[];
      DefaultCacheBehavior: { TargetOriginId: string; TrustedKeyGroups?: unknown };
      CacheBehaviors: {
        PathPattern: string;
        TargetOriginId: string;
        TrustedKeyGroups: unknown;
        ViewerProtocolPolicy: string;
        AllowedMethods: string[];
      }[];
    };
    // One origin, the bucket through OAC; the bucket itself stays private (media-cdn.test.ts).
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0]?.OriginAccessControlId).toBeDefined();
    expect(config.CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: 'private/*',
        TargetOriginId: config.Origins[0]?.Id,
        TrustedKeyGroups: [{ Ref: keyGroupId }],
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD'],
      }),
    ]);
    // Public media keep plain CDN URLs: the default behaviour trusts no key group.
    expect(config.DefaultCacheBehavior.TrustedKeyGroups).toBeUndefined();
  });

  it('keeps the private key in Secrets Manager, out of the template, readable by the signing functions only', () => {
    const { data } = prod.templates;
    const secrets = Object.entries(resources(data, 'AWS::SecretsManager::Secret')).filter(([id]) =>
      id.includes('SigningPrivateKey'),
    );
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0] ?? [];
    // A generated placeholder, never a key in the template (operators put the PEM there).
    expect(JSON.stringify(secret?.Properties)).not.toContain('PRIVATE KEY');
    expect(secret?.Properties?.GenerateSecretString).toBeDefined();
    expect(secretReaders(functionTemplates(prod), new RegExp(String(secretId)))).toEqual(
      SIGNERS.map((id) => functionName('prod', id)).sort(),
    );
    // The catalogue says the same: exactly the functions whose answers carry media URLs.
    const granted = allFunctionSpecs()
      .filter((spec) => spec.grants.secrets?.some((name) => name === 'mediaSigningKey'))
      .map((spec) => spec.id)
      .sort();
    expect(granted).toEqual(SIGNERS);
  });

  it('tells the signing functions the key pair id and secret, in a stage with a key only', () => {
    const variables = (app: typeof prod) =>
      new Map(
        functionsOf(functionTemplates(app)).map(({ fn }) => [
          String(fn.Properties?.FunctionName),
          (fn.Properties as Env)?.Environment?.Variables ?? {},
        ]),
      );
    const [publicKeyId] = Object.keys(resources(prod.templates.data, 'AWS::CloudFront::PublicKey'));
    for (const [name, env] of variables(prod)) {
      const signer = SIGNERS.some((id) => name === functionName('prod', id));
      expect(env.MEDIA_CDN_KEY_PAIR_ID !== undefined, name).toBe(signer);
      expect(env.MEDIA_SIGNING_KEY_SECRET_ID !== undefined, name).toBe(signer);
      if (signer) expect(JSON.stringify(env.MEDIA_CDN_KEY_PAIR_ID)).toContain(String(publicKeyId));
    }
    // dev has no signing key: no key group, no private behaviour, presigned S3 GETs (MEDIA_CDN_KEY_PAIR_ID unset).
    dev.templates.data.resourceCountIs('AWS::CloudFront::KeyGroup', 0);
    dev.templates.data.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ CacheBehaviors: Match.absent() }),
    });
    for (const [name, env] of variables(dev)) expect(env.MEDIA_CDN_KEY_PAIR_ID, name).toBeUndefined();
  });
});
