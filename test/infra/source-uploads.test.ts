import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { APP_CONTEXT, stageConfig } from '#infra/config.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { ProjectChecks } from '#infra/nag.ts';
import { functionName } from '#infra/naming.ts';
import { createStacks } from '#infra/stacks/create-stacks.ts';
import { resources } from './synth-app.ts';

/**
 * The stage setting `buddypressUploadsBucket`: when set, the functions whose catalogue line grants `sourceUploads`
 * (the migrations worker, the config route) may list that bucket and read its objects, and nothing more; when
 * unset, nobody gets any access to it. The real catalogue, synthesized without bundling.
 */
const BUCKET = 'example-buddypress-uploads';

type Statement = { Sid?: string; Effect: string; Action: string | string[]; Resource: unknown };

function synth(bucket: string | undefined) {
  const app = new App({ context: { ...APP_CONTEXT } });
  const config = { ...stageConfig('dev', {}), buddypressUploadsBucket: bucket };
  const stacks = createStacks(app, config, { bundle: false });
  if (!stacks.workers) throw new Error('the real catalogue has queues');
  const stacksWithFunctions = [stacks.api, ...stacks.routeStacks.values(), stacks.workers];
  return { app, templates: stacksWithFunctions.map((stack) => Template.fromStack(stack)) };
}

/** Function name → the statements of its role's policies that mention the uploads bucket. */
function bucketStatements(templates: Template[]): Map<string, Statement[]> {
  const found = new Map<string, Statement[]>();
  for (const template of templates) {
    const functions = Object.values(resources(template, 'AWS::Lambda::Function'));
    for (const policy of Object.values(resources(template, 'AWS::IAM::Policy'))) {
      const roles = JSON.stringify(policy.Properties?.Roles);
      const owner = functions.find((fn) => {
        const role = (fn.Properties?.Role as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
        return role !== undefined && roles.includes(`"${role}"`);
      });
      const document = policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined;
      const statements = (document?.Statement ?? []).filter((s) =>
        JSON.stringify(s.Resource).includes(`:s3:::${BUCKET}`),
      );
      if (statements.length === 0) continue;
      const name = String(owner?.Properties?.FunctionName ?? 'unknown');
      found.set(name, [...(found.get(name) ?? []), ...statements]);
    }
  }
  return found;
}

describe('BuddyPress uploads bucket (stage setting buddypressUploadsBucket)', () => {
  it('lets the migration workers and the config route list the bucket and read its objects, nothing else', () => {
    const granted = bucketStatements(synth(BUCKET).templates);
    expect([...granted.keys()].sort()).toEqual(
      [
        functionName('dev', 'getBuddypressMigrationConfig'),
        functionName('dev', 'migrationsWorker'),
        functionName('dev', 'imagesWorker'),
      ].sort(),
    );
    for (const statements of granted.values()) {
      const simplified = statements
        .map((s) => ({ effect: s.Effect, actions: [s.Action].flat(), resource: JSON.stringify(s.Resource) }))
        .sort((a, b) => a.resource.localeCompare(b.resource));
      expect(simplified).toEqual([
        {
          effect: 'Allow',
          actions: ['s3:ListBucket'],
          resource: expect.stringContaining(`:s3:::${BUCKET}"`),
        },
        {
          effect: 'Allow',
          actions: ['s3:GetObject'],
          resource: expect.stringContaining(`:s3:::${BUCKET}/*"`),
        },
      ]);
    }
  });

  it('grants nothing on it when the stage names no bucket', () => {
    expect(bucketStatements(synth(undefined).templates).size).toBe(0);
    // The grant is in the catalogue either way; only the stage decides whether it reaches IAM.
    const specs = allFunctionSpecs().filter((spec) => spec.grants.sourceUploads);
    expect(specs.map((spec) => spec.id).sort()).toEqual([
      'getBuddypressMigrationConfig',
      'imagesWorker',
      'migrationsWorker',
    ]);
  });

  it('keeps cdk-nag free of unacknowledged errors with the grant in place', () => {
    const { app } = synth(BUCKET);
    const report = new ProjectChecks().check(app);
    const errors = report.violations.filter((v) => v.severity === 'error');
    expect(
      errors.map((v) => `${v.ruleName} @ ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
  });

  it('gives the images worker, not the migrations worker, the media bucket and sharp (issue 21, item 21)', () => {
    // The chunk worker loads MySQL; copying images there too put sharp in its cold start (over 2 × the floor).
    const images = allFunctionSpecs().find((spec) => spec.id === 'imagesWorker');
    expect(images?.grants.bucket).toEqual({ write: ['media/'] });
    expect(images?.nativeModules).toEqual(['sharp']);
    expect(images?.grants.secrets ?? []).toEqual([]);
    const worker = allFunctionSpecs().find((spec) => spec.id === 'migrationsWorker');
    expect(worker?.grants.bucket).toBeUndefined();
    expect(worker?.nativeModules).toEqual(['mysql2']);
  });
});
