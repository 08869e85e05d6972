import { describe, expect, it } from 'vitest';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { functionName } from '#infra/naming.ts';
import { resources, synthApp } from './synth-app.ts';

type Statement = { Sid?: string; Effect: string; Action: string | string[]; Resource: unknown };

/**
 * S3 grants are per key prefix (catalogue `grants.bucket`): no function gets S3 action families (`GetObject*`,
 * `List*`), the whole bucket's objects (`<bucket>/*`) or an action its catalogue line does not name.
 */
describe('media bucket grants', () => {
  const app = synthApp('real');
  const templates = [app.templates.api, app.templates.workers].filter((t) => t !== undefined);

  /** Function name → its role's S3 statements, as `action resource-suffix` strings. */
  function s3Grants(): Map<string, string[]> {
    const found = new Map<string, string[]>();
    for (const template of templates) {
      const functions = Object.values(resources(template, 'AWS::Lambda::Function'));
      for (const policy of Object.values(resources(template, 'AWS::IAM::Policy'))) {
        const roles = JSON.stringify(policy.Properties?.Roles);
        const owner = functions.find((fn) => {
          const role = (fn.Properties?.Role as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
          return role !== undefined && roles.includes(`"${role}"`);
        });
        const document = policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined;
        for (const statement of document?.Statement ?? []) {
          const actions = [statement.Action].flat().filter((action) => action.startsWith('s3:'));
          if (actions.length === 0) continue;
          for (const resource of [statement.Resource].flat()) {
            const text = JSON.stringify(resource);
            const suffix = text.match(/"(\/[^"]*)"\]\]\}$/)?.[1] ?? '';
            const name = String(owner?.Properties?.FunctionName);
            for (const action of actions)
              found.set(name, [...(found.get(name) ?? []), `${action} ${suffix}`.trim()]);
          }
        }
      }
    }
    return found;
  }

  it('grants each function exactly its catalogue prefixes', () => {
    const grants = s3Grants();
    const expected = new Map<string, string[]>();
    for (const spec of allFunctionSpecs()) {
      const access = spec.grants.bucket;
      if (!access) continue;
      const lines = [
        ...(access.read ?? []).map((prefix) => `s3:GetObject /${prefix}*`),
        ...(access.read?.length ? ['s3:ListBucket'] : []),
        ...(access.write ?? []).map((prefix) => `s3:PutObject /${prefix}*`),
        ...(access.delete ?? []).map((prefix) => `s3:DeleteObject /${prefix}*`),
      ];
      expected.set(functionName('dev', spec.id), lines.sort());
    }
    expect(new Map([...grants].map(([name, lines]) => [name, [...lines].sort()]))).toEqual(expected);
    // Uploads never delete; deleting media never reads or writes.
    // (`private/` read: signing the GET URLs of media of private spaces in its answer.)
    expect(grants.get(functionName('dev', 'uploadMedia'))?.sort()).toEqual([
      's3:GetObject /private/*',
      's3:ListBucket',
      's3:PutObject /media/*',
      's3:PutObject /pending/*',
      's3:PutObject /private/*',
    ]);
  });
});
