import { type CfnResource as CdkCfnResource, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { Grants } from '#shared/catalogue/index.ts';
import { functionName } from '#infra/naming.ts';
import { type CfnResource, resources, type SynthesizedApp, synthApp } from './synth-app.ts';

type Json = unknown;

/** Logical ids a CloudFormation value points at: `Ref`/`Fn::GetAtt` targets, and `Fn::ImportValue` export names. */
function references(value: Json, found = { refs: new Set<string>(), imports: new Set<string>() }) {
  if (Array.isArray(value)) {
    for (const item of value) references(item, found);
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, Json>;
    if (typeof record.Ref === 'string' && !record.Ref.startsWith('AWS::')) found.refs.add(record.Ref);
    const getAtt = record['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') found.refs.add(getAtt[0]);
    if (typeof record['Fn::ImportValue'] === 'string') found.imports.add(record['Fn::ImportValue']);
    for (const [key, inner] of Object.entries(record))
      if (key !== 'Ref' && key !== 'Fn::GetAtt') references(inner, found);
  }
  return found;
}

/** Export name → the data-stack logical ids its value references. */
function exportTargets(data: Template): Map<string, Set<string>> {
  const outputs = (data.toJSON().Outputs ?? {}) as Record<string, { Value: Json; Export?: { Name: string } }>;
  return new Map(
    Object.values(outputs)
      .filter((o) => o.Export)
      .map((o) => [o.Export?.Name ?? '', references(o.Value).refs]),
  );
}

type Statement = { Effect: string; Action: string | string[]; Resource: Json };
const statementsOf = (policy: CfnResource): Statement[] =>
  (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [];
const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

// AWS-mandated exception: X-Ray's trace APIs have no resource-level permissions, so CDK grants them on `*`.
const XRAY_ACTIONS = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
const isXrayStatement = (s: Statement) => asArray(s.Action).every((a) => XRAY_ACTIONS.includes(a));
/** The live API's grant (`live`), checked against the live API itself in live-api.test.ts. */
const isLiveStatement = (s: Statement) =>
  asArray(s.Action).every((a) => a === 'execute-api:ManageConnections');

function policiesOfRole(template: Template, roleId: string): Statement[] {
  return Object.values(resources(template, 'AWS::IAM::Policy'))
    .filter((p) => references(p.Properties?.Roles).refs.has(roleId))
    .flatMap(statementsOf);
}

function logicalId(construct: { node: { defaultChild?: unknown } }): string {
  const cfn = construct.node.defaultChild as CdkCfnResource;
  return Stack.of(cfn).getLogicalId(cfn);
}

/** The data-stack logical ids a function's grants (and, for a worker, its own queue) allow it to reference. */
function expectedTargets(app: SynthesizedApp, grants: Grants, consumes?: string): Set<string> {
  const { data } = app.stacks;
  const queue = (name: string) => {
    const found = data.workQueues.get(name);
    if (!found) throw new Error(`queue ${name} not in data stack`);
    return logicalId(found.queue);
  };
  const ids = new Set<string>();
  if (grants.table) ids.add(logicalId(data.table));
  if (grants.bucket) ids.add(logicalId(data.bucket));
  for (const name of grants.sendTo ?? []) ids.add(queue(name));
  if (grants.mailer) ids.add(logicalId(data.mailIdentity));
  for (const name of grants.secrets ?? [])
    ids.add(logicalId(data.secrets[name] as unknown as { node: { defaultChild?: unknown } }));
  if (consumes) ids.add(queue(consumes));
  return ids;
}

type FunctionSpec = SynthesizedApp['functions'][number];

/** A function's Lambda resource, and every statement of its role's policies. */
function functionOf(app: SynthesizedApp, spec: FunctionSpec) {
  const template = spec.kind === 'worker' ? app.templates.workers : app.templates.api;
  if (!template) throw new Error('worker without a workers stack');
  const [fn] = Object.values(resources(template, 'AWS::Lambda::Function')).filter(
    (f: CfnResource) => f.Properties?.FunctionName === functionName('dev', spec.id),
  );
  const [roleId] = references(fn?.Properties?.Role).refs;
  return { fn, statements: policiesOfRole(template, roleId ?? '') };
}

describe.each(['real', 'synthetic'] as const)('IAM (%s catalogue)', (catalogue) => {
  const app = synthApp(catalogue);
  const targets = exportTargets(app.templates.data);
  const stackTemplates = [app.templates.api, app.templates.workers].filter(
    (t): t is Template => t !== undefined,
  );

  it.each(app.functions.map((spec) => [spec.id, spec] as const))(
    'should let %s reference exactly the resources its grants name',
    (_id, spec) => {
      const { fn, statements } = functionOf(app, spec);
      expect(fn).toBeDefined();
      const [ownLogGroup] = references(fn?.Properties?.LoggingConfig).refs;

      const found = references(
        statements.filter((s) => !isXrayStatement(s) && !isLiveStatement(s)).map((s) => s.Resource),
      );
      expect(statements.some(isLiveStatement)).toBe(spec.grants.live === 'post');
      const referenced = new Set(
        [...found.imports].flatMap((name) => [...(targets.get(name) ?? [`unresolved:${name}`])]),
      );
      const consumes =
        spec.kind === 'worker' ? app.queues.find((q) => `${q.name}Worker` === spec.id)?.name : undefined;
      expect([...referenced].sort()).toEqual([...expectedTargets(app, spec.grants, consumes)].sort());
      // In its own stack a function's role may reach only its own log group.
      expect([...found.refs]).toEqual([ownLogGroup]);
    },
  );

  it.each(app.functions.filter((spec) => spec.grants.table).map((spec) => [spec.id, spec] as const))(
    'should deny dynamodb:Scan on the table and every index to %s (its read grant includes Scan)',
    (_id, spec) => {
      const { statements } = functionOf(app, spec);
      const table = logicalId(app.stacks.data.table);
      const denials = statements.filter(
        (s) => s.Effect === 'Deny' && asArray(s.Action).includes('dynamodb:Scan'),
      );
      expect(denials).toHaveLength(1);
      const denied = asArray(denials[0]?.Resource);
      expect(denied).toHaveLength(2);
      for (const resource of denied) {
        const imports = [...references(resource).imports];
        expect(imports).toHaveLength(1);
        expect(imports.every((name) => targets.get(name)?.has(table))).toBe(true);
      }
      expect(JSON.stringify(denied)).toContain('/index/*');
    },
  );

  it('should let no function that may touch the table scan it', () => {
    for (const spec of app.functions) {
      const { statements } = functionOf(app, spec);
      const dynamodb = statements.filter(
        (s) => s.Effect === 'Allow' && asArray(s.Action).some((action) => action.startsWith('dynamodb:')),
      );
      if (dynamodb.length === 0) continue;
      const denied = statements.some(
        (s) => s.Effect === 'Deny' && asArray(s.Action).includes('dynamodb:Scan'),
      );
      expect(denied, spec.id).toBe(true);
    }
  });

  it('should grant no "*" action and no unscoped "*" resource (X-Ray excepted)', () => {
    for (const template of [...stackTemplates, app.templates.data, app.templates.monitoring]) {
      const statements = Object.values(resources(template, 'AWS::IAM::Policy')).flatMap(statementsOf);
      for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
        for (const action of asArray(statement.Action)) expect(action).not.toMatch(/^(\*|[\w-]+:\*)$/);
        if (isXrayStatement(statement)) continue;
        for (const resource of asArray(statement.Resource)) expect(resource).not.toBe('*');
      }
    }
  });

  it('should attach no managed policies (roles start with log writes to their own group only)', () => {
    for (const template of stackTemplates) {
      for (const role of Object.values(resources(template, 'AWS::IAM::Role'))) {
        expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
      }
    }
  });
});
