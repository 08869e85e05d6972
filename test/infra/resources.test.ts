import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ROUTE_DOMAINS, type RouteEntry } from '#shared/catalogue/index.ts';
import { APP_CONTEXT, stageConfig } from '#infra/config.ts';
import { ProjectChecks } from '#infra/nag.ts';
import { ResourceBudget, STACK_RESOURCE_BUDGET } from '#infra/resource-budget.ts';
import { deadLetterQueueName, functionName, queueName } from '#infra/naming.ts';
import { createStacks } from '#infra/stacks/create-stacks.ts';
import { GLOBAL_INDEXES, TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';
import { resources, SYNTHETIC_QUEUES, SYNTHETIC_ROUTES, synthApp } from './synth-app.ts';

describe('data stack', () => {
  const { templates } = synthApp('synthetic', 'prod');

  it('should keep the table: on-demand, PITR, deletion protection, Retain, TTL, GSIs projecting ALL', () => {
    templates.data.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) =>
          Match.objectLike({ IndexName: index.name, Projection: { ProjectionType: 'ALL' } }),
        ),
      }),
    });
  });

  it('should keep the media bucket private, encrypted, retained, and expire pending uploads after a day', () => {
    templates.data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: Match.objectLike({
          BlockPublicAcls: true,
          RestrictPublicBuckets: true,
        }),
        BucketEncryption: Match.anyValue(),
        CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['POST'] })] },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'pending/', ExpirationInDays: 1, Status: 'Enabled' }),
          ]),
        },
      }),
    });
  });

  it('should never put a secret value in the template', () => {
    for (const secret of Object.values(resources(templates.data, 'AWS::SecretsManager::Secret'))) {
      expect(secret.Properties?.SecretString).toBeUndefined();
      expect(secret.Properties?.GenerateSecretString).toBeDefined();
    }
  });
});

describe('queues', () => {
  const { templates } = synthApp('synthetic');
  const queues = Object.values(resources(templates.data, 'AWS::SQS::Queue'));
  const byName = new Map(queues.map((q) => [q.Properties?.QueueName as string, q]));
  const fns = Object.values(resources(templates.workers ?? templates.api, 'AWS::Lambda::Function'));
  const mappings = Object.values(
    resources(templates.workers ?? templates.api, 'AWS::Lambda::EventSourceMapping'),
  );

  it.each(SYNTHETIC_QUEUES.map((q) => [q.name, q] as const))(
    'should give %s a DLQ, a safe visibility timeout and a partial-batch consumer',
    (_name, entry) => {
      const queue = byName.get(queueName('dev', entry.name));
      const dlq = byName.get(deadLetterQueueName('dev', entry.name));
      expect(queue?.Properties?.RedrivePolicy).toMatchObject({ maxReceiveCount: entry.maxReceiveCount });
      expect(dlq?.Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      // A work queue keeps a message at least as long as its DLQ: a backlog is never dropped undead-lettered.
      expect(queue?.Properties?.MessageRetentionPeriod).toBeGreaterThanOrEqual(
        dlq?.Properties?.MessageRetentionPeriod as number,
      );
      for (const q of [queue, dlq]) expect(q?.Properties?.SqsManagedSseEnabled).toBe(true);

      const consumer = fns.find(
        (f) => f.Properties?.FunctionName === functionName('dev', `${entry.name}Worker`),
      );
      const timeout = consumer?.Properties?.Timeout as number;
      expect(queue?.Properties?.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);

      const mapping = mappings.find((m) =>
        JSON.stringify(m.Properties?.FunctionName).includes(`${entry.name}Worker`),
      );
      expect(mapping?.Properties).toMatchObject({
        BatchSize: entry.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ...(entry.maxConcurrency ? { ScalingConfig: { MaximumConcurrency: entry.maxConcurrency } } : {}),
      });
    },
  );
});

describe('alarms', () => {
  const { templates, functions } = synthApp('synthetic');
  const alarms = Object.values(resources(templates.monitoring, 'AWS::CloudWatch::Alarm'));

  it('should alarm on every DLQ, the oldest message of every queue, the API 5xx rate, and each function errors and throttles, to the topic', () => {
    // One per DLQ, one per work queue's oldest message, one 5xx rate, two per function.
    expect(alarms).toHaveLength(2 * SYNTHETIC_QUEUES.length + 1 + 2 * functions.length);
    const [topicId] = Object.keys(resources(templates.monitoring, 'AWS::SNS::Topic'));
    for (const alarm of alarms) expect(alarm.Properties?.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it.each(SYNTHETIC_QUEUES.map((q) => [q.name] as const))(
    'should alarm when the oldest message of the %s work queue waits longer than its threshold',
    (name) => {
      const ages = alarms.filter(
        (alarm) =>
          alarm.Properties?.MetricName === 'ApproximateAgeOfOldestMessage' &&
          JSON.stringify(alarm.Properties?.Dimensions) ===
            JSON.stringify([{ Name: 'QueueName', Value: queueName('dev', name) }]),
      );
      expect(ages).toHaveLength(1);
      expect(ages[0]?.Properties?.Threshold).toBeGreaterThan(0);
    },
  );
});

describe('limits and cdk-nag', () => {
  it.each(['dev', 'prod'] as const)(
    'should keep every %s stack at most 300 resources (60 percent of 500) and free of unacknowledged nag errors',
    (stage) => {
      const app = new App({ context: { ...APP_CONTEXT } });
      createStacks(app, stageConfig(stage, {}), { bundle: false });
      const assembly = app.synth();
      const counts = new Map(
        assembly.stacks.map((stack) => [
          stack.stackName,
          Object.keys((stack.template as { Resources: object }).Resources).length,
        ]),
      );
      for (const [name, count] of counts) expect(count, name).toBeLessThanOrEqual(STACK_RESOURCE_BUDGET);
      expect(STACK_RESOURCE_BUDGET).toBe(300);
      // The real catalogue: every route is in some stack, and the largest stack is a domain's or the data stack.
      expect(counts.size).toBeGreaterThanOrEqual(ROUTE_DOMAINS.length + 4);
      const report = new ProjectChecks().check(app);
      const errors = report.violations.filter((v) => v.severity === 'error');
      expect(
        errors.map((v) => `${v.ruleName} @ ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
      ).toEqual([]);
      for (const stack of app.node.children) {
        if (!(stack instanceof Stack)) continue;
        // cdk-nag 3 reports through the validation plugin, not annotations; this stays empty unless CDK itself errs.
        expect(
          Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
        ).toEqual([]);
      }
    },
  );

  it('should fail the synth when a stack passes the budget (a domain of 45 routes)', () => {
    const many: RouteEntry[] = Array.from({ length: 45 }, (_, i) => ({
      ...(SYNTHETIC_ROUTES[i % SYNTHETIC_ROUTES.length] as RouteEntry),
      operationId: `operation${i}`,
      path: `/resource${i}/{id}`,
    }));
    const app = new App({ context: { ...APP_CONTEXT } });
    createStacks(app, stageConfig('dev', {}), {
      routeDomains: [{ name: 'huge', routes: many }],
      queues: SYNTHETIC_QUEUES,
      bundle: false,
    });
    Validations.of(app).addPlugins(new ResourceBudget());
    expect(() => app.synth()).toThrow(/community-dev-api-huge\.template\.json has 3\d\d resources/);
  });

  it('should let the same domain through when it is split in two', () => {
    const many: RouteEntry[] = Array.from({ length: 45 }, (_, i) => ({
      ...(SYNTHETIC_ROUTES[i % SYNTHETIC_ROUTES.length] as RouteEntry),
      operationId: `operation${i}`,
      path: `/resource${i}/{id}`,
    }));
    const app = new App({ context: { ...APP_CONTEXT } });
    createStacks(app, stageConfig('dev', {}), {
      routeDomains: [
        { name: 'first', routes: many.slice(0, 23) },
        { name: 'second', routes: many.slice(23) },
      ],
      queues: SYNTHETIC_QUEUES,
      bundle: false,
    });
    Validations.of(app).addPlugins(new ResourceBudget());
    expect(() => app.synth()).not.toThrow();
  });

  it('should fail the synth on an unacknowledged finding (the plugin is wired, not decorative)', () => {
    const app = new App({ context: { ...APP_CONTEXT } });
    const { data } = createStacks(app, stageConfig('dev', {}), { bundle: false });
    // A bucket without access logs or TLS enforcement: AwsSolutions errors nobody acknowledged.
    new s3.Bucket(data, 'Unsafe');
    Validations.of(app).addPlugins(new ProjectChecks());
    expect(() => app.synth()).toThrow(/AwsSolutions/);
  });
});
