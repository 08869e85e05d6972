import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type QueueEntry, visibilityTimeoutSeconds } from '../../shared/catalogue/index.ts';

export interface WorkQueueProps {
  readonly entry: QueueEntry;
  /** Physical name of the queue; the DLQ gets the same name with `-dlq`. */
  readonly queueName: string;
  readonly deadLetterQueueName: string;
}

/**
 * A catalogued queue and its dead-letter queue. The visibility timeout is derived from the consumer's timeout
 * (catalogue `visibilityTimeoutSeconds`) so a message is never redelivered while a worker still holds it.
 * SQS-managed encryption: no KMS key to grant to every producer and consumer, and no per-request KMS cost.
 */
export class WorkQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const secure = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Queues hold in-flight work only, but a failed message in a DLQ is evidence: keep it on stack updates.
      removalPolicy: RemovalPolicy.RETAIN,
    } satisfies sqs.QueueProps;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      ...secure,
      queueName: props.deadLetterQueueName,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...secure,
      queueName: props.queueName,
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(props.entry)),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.entry.maxReceiveCount },
    });
  }
}
