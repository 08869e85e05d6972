import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_CONTEXT, stageConfig } from '#infra/config.ts';
import { functionName } from '#infra/naming.ts';
import { type CloudAssembly, readCloudAssembly, resourcesOfType } from '#infra/local/bundled/assembly.ts';
import { createIamCheck } from '#infra/local/bundled/iam-check.ts';
import { synthesizedPolicies } from '#infra/local/bundled/iam-policies.ts';
import { localAttribute, localSecretArn } from '#infra/local/bundled/local-values.ts';
import { iamRequestsOf } from '#infra/local/bundled/request-actions.ts';
import { createResolver } from '#infra/local/bundled/resolve-intrinsics.ts';
import type { SynthesizedFunction } from '#infra/local/bundled/synthesized-functions.ts';
import { createStacks } from '#infra/stacks/create-stacks.ts';
import { QUEUES, ROUTE_DOMAINS, type RouteDomain } from '#shared/catalogue/index.ts';

/**
 * The bundled mode's IAM evaluation on the real synthesized templates (no bundling, nothing run): what a catalogue
 * line grants is allowed, what it does not is refused, explicit denies win. The same machinery holds every SDK call
 * of a function to its policy in `npm run test:bundled`.
 */
const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

const LOCAL = {
  region: 'us-east-1',
  account: '000000000000',
  tableName: 'table',
  bucketName: 'bucket',
  queues: new Map(
    QUEUES.map((q) => [
      q.name,
      { url: `http://q/${q.name}`, arn: `arn:aws:sqs:us-east-1:000000000000:${q.name}` },
    ]),
  ),
  deadLetterQueues: new Map(
    QUEUES.map((q) => [
      q.name,
      { url: `http://q/${q.name}-dlq`, arn: `arn:aws:sqs:us-east-1:000000000000:${q.name}-dlq` },
    ]),
  ),
  gatewayOrigin: 'http://127.0.0.1:1',
  cdnHost: '127.0.0.1:2',
};

function synthesize(domains: readonly RouteDomain[]) {
  const outdir = mkdtempSync(join(tmpdir(), 'local-iam-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { ...APP_CONTEXT } });
  createStacks(app, stageConfig('dev', {}), { routeDomains: domains, bundle: false });
  app.synth();
  const assembly = readCloudAssembly(outdir);
  const resolver = createResolver(assembly, localAttribute(LOCAL), LOCAL);
  const iam = createIamCheck(synthesizedPolicies(assembly, resolver), LOCAL.account, LOCAL.region);
  return { iam, fn: (id: string) => functionOf(assembly, resolver, functionName('dev', id)) };
}

/** Just what the IAM check needs of a function, from its template. */
function functionOf(
  assembly: CloudAssembly,
  resolver: ReturnType<typeof createResolver>,
  name: string,
): SynthesizedFunction {
  const found = resourcesOfType(assembly, 'AWS::Lambda::Function').find(
    ({ resource }) => resource.Properties?.FunctionName === name,
  );
  if (!found) throw new Error(`no function ${name}`);
  const role =
    (found.resource.Properties?.Role as { 'Fn::GetAtt'?: [string] } | undefined)?.['Fn::GetAtt']?.[0] ?? '';
  return {
    name,
    stack: found.stack,
    logicalId: found.logicalId,
    codeDir: '',
    handler: 'index.handler',
    memoryMb: 512,
    timeoutSeconds: 29,
    reservedConcurrency: undefined,
    environment: {},
    roleArn: resolver.resolveString(found.stack, found.resource.Properties?.Role),
    roleLogicalId: role,
  };
}

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/table';
const allowed = async (check: Promise<{ allowed: boolean }>) => (await check).allowed;

describe('IAM of the synthesized functions, as the bundled mode evaluates it', () => {
  const real = synthesize(ROUTE_DOMAINS);

  it('allows each function what its catalogue line grants', async () => {
    const { iam, fn } = real;
    expect(
      await allowed(iam.check(fn('createTopic'), { action: 'dynamodb:UpdateItem', resource: TABLE })),
    ).toBe(true);
    expect(
      await allowed(
        iam.check(fn('createFeed'), {
          action: 'sqs:SendMessage',
          resource: LOCAL.queues.get('notify')?.arn ?? '',
        }),
      ),
    ).toBe(true);
    expect(
      await allowed(
        iam.check(fn('uploadMedia'), { action: 's3:PutObject', resource: 'arn:aws:s3:::bucket/pending/7' }),
      ),
    ).toBe(true);
    // The grant the bundled mode found missing: the quiz results list seals cursors.
    const cursorKey = localSecretArn(LOCAL, 'cursorKey');
    expect(
      await allowed(
        iam.check(fn('listQuizResults'), { action: 'secretsmanager:GetSecretValue', resource: cursorKey }),
      ),
    ).toBe(true);
  });

  it('refuses what it does not grant, and the explicit Scan deny wins over the read grant', async () => {
    const { iam, fn } = real;
    const scan = await iam.check(fn('listFeeds'), { action: 'dynamodb:Scan', resource: TABLE });
    expect(scan).toMatchObject({ allowed: false, explicit: true });
    expect(
      await allowed(
        iam.check(fn('createTopic'), {
          action: 'sqs:SendMessage',
          resource: LOCAL.queues.get('mail')?.arn ?? '',
        }),
      ),
    ).toBe(false);
    expect(
      await allowed(
        iam.check(fn('uploadMedia'), { action: 's3:GetObject', resource: 'arn:aws:s3:::bucket/pending/7' }),
      ),
    ).toBe(false);
    expect(await allowed(iam.check(fn('getFeed'), { action: 'dynamodb:PutItem', resource: TABLE }))).toBe(
      false,
    );
  });

  it('refuses createTopic its writes once its catalogue line grants only reads', async () => {
    const domains = ROUTE_DOMAINS.map((domain) => ({
      ...domain,
      routes: domain.routes.map((route) =>
        route.operationId === 'createTopic' ? { ...route, grants: { table: 'read' as const } } : route,
      ),
    }));
    const { iam, fn } = synthesize(domains.filter((domain) => domain.name === 'topics'));
    const decision = await iam.check(fn('createTopic'), { action: 'dynamodb:UpdateItem', resource: TABLE });
    expect(decision).toMatchObject({
      allowed: false,
      message: expect.stringMatching(
        /not authorized to perform: dynamodb:UpdateItem on resource: .*table\/table/,
      ),
    });
  });

  it('needs every item action of a transaction, and DeleteObject per key of a batch delete', () => {
    const arns = {
      region: 'us-east-1',
      account: '000000000000',
      queueArn: (url: string) => url,
      mailIdentity: (s: string) => s,
    };
    const transaction = iamRequestsOf(
      'dynamodb',
      {
        method: 'POST',
        url: '/',
        headers: { 'x-amz-target': 'DynamoDB_20120810.TransactWriteItems' },
        body: Buffer.from(
          JSON.stringify({
            TransactItems: [{ Put: { TableName: 't' } }, { ConditionCheck: { TableName: 't' } }],
          }),
        ),
      },
      arns,
    );
    expect(transaction.map((r) => r.action)).toEqual(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']);
    const deletes = iamRequestsOf(
      's3',
      {
        method: 'POST',
        url: '/bucket?delete',
        headers: {},
        body: Buffer.from(
          '<Delete><Object><Key>media/1/a</Key></Object><Object><Key>pending/1</Key></Object></Delete>',
        ),
      },
      arns,
    );
    expect(deletes).toEqual([
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::bucket/media/1/a' },
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::bucket/pending/1' },
    ]);
  });
});
