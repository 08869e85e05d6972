import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import {
  DEFAULT_OLDEST_MESSAGE_ALARM_SECONDS,
  QUEUES,
  type QueueEntry,
} from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import type { FunctionSpec } from '../function-specs.ts';
import { acknowledge } from '../nag.ts';
import { deadLetterQueueName, functionName, queueName } from '../naming.ts';

export interface MonitoringStackProps extends StackProps {
  readonly config: StageConfig;
  /** The HTTP API's id (the only cross-stack reference: it never changes for the life of the API). */
  readonly apiId: string;
  /** Functions to alarm on; addressed by their deterministic names, not by import. */
  readonly functions: readonly FunctionSpec[];
  /**
   * Queues whose dead-letter queues to alarm on.
   * @default QUEUES from shared/catalogue
   */
  readonly queues?: readonly QueueEntry[];
}

const PERIOD = Duration.minutes(5);

/** Alarms on DLQ depth, the age of each work queue's oldest message, the API's 5xx rate and each function's errors and throttles, to one SNS topic. */
export class MonitoringStack extends Stack {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.topic = new sns.Topic(this, 'AlarmTopic', { enforceSSL: true });
    acknowledge(
      this.topic,
      'AwsSolutions-SNS2',
      'Alarm notifications carry only alarm names and states; a CMK would need a CloudWatch key policy for no gain.',
    );
    if (config.alarms.email) this.topic.addSubscription(new EmailSubscription(config.alarms.email));
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, props: cloudwatch.AlarmProps) => {
      new cloudwatch.Alarm(this, alarmId, {
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...props,
      }).addAlarmAction(action);
    };

    // A queue's alarm: its highest value of an SQS metric over a period above the threshold.
    const queueAlarm = (alarmId: string, metricName: string, queue: string, threshold: number) =>
      alarm(alarmId, {
        metric: new cloudwatch.Metric({
          namespace: 'AWS/SQS',
          metricName,
          dimensionsMap: { QueueName: queue },
          statistic: cloudwatch.Stats.MAXIMUM,
          period: PERIOD,
        }),
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });

    const queues: readonly QueueEntry[] = props.queues ?? QUEUES;
    for (const queue of queues) {
      // Any message in a DLQ is a failure nobody has looked at yet.
      queueAlarm(
        `${queue.name}DeadLetters`,
        'ApproximateNumberOfMessagesVisible',
        deadLetterQueueName(config.stage, queue.name),
        0,
      );
      // A work queue that stops draining (a stuck consumer, a throttled worker) shows first as an old message,
      // long before its 14 days of retention run out.
      queueAlarm(
        `${queue.name}OldestMessageAge`,
        'ApproximateAgeOfOldestMessage',
        queueName(config.stage, queue.name),
        queue.oldestMessageAlarmSeconds ?? DEFAULT_OLDEST_MESSAGE_ALARM_SECONDS,
      );
    }

    const apiMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.apiId },
        statistic: cloudwatch.Stats.SUM,
        period: PERIOD,
      });
    alarm('ApiServerErrorRate', {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: { errors: apiMetric('5xx'), requests: apiMetric('Count') },
        period: PERIOD,
        label: 'API 5xx rate (%)',
      }),
      threshold: config.alarms.serverErrorRatePercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    for (const spec of props.functions) {
      const lambdaMetric = (metricName: string) =>
        new cloudwatch.Metric({
          namespace: 'AWS/Lambda',
          metricName,
          dimensionsMap: { FunctionName: functionName(config.stage, spec.id) },
          statistic: cloudwatch.Stats.SUM,
          period: PERIOD,
        });
      alarm(`${spec.id}Errors`, {
        metric: lambdaMetric('Errors'),
        threshold: config.alarms.functionErrors,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
      alarm(`${spec.id}Throttles`, {
        metric: lambdaMetric('Throttles'),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
  }
}
