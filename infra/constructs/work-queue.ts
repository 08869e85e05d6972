import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  MESSAGE_RETENTION_SECONDS,
  type QueueEntry,
  visibilityTimeoutSeconds,
} from '../../shared/catalogue/index.ts';

export interface WorkQueueProps {
  readonly entry: QueueEntry;
  /** Physical name of the queue; the DLQ gets the same name with `-dlq`. */
  readonly queueName: string;
  readonly deadLetterQueueName: string;
}

/**
 * A catalogued queue and its dead-letter queue. The visibility timeout is derived from the consumer's timeout
 * (catalogue `visibilityTimeoutSeconds`) so a message is never redelivered while a worker still holds it.
 * Both keep messages 14 days (`MESSAGE_RETENTION_SECONDS`). SQS-managed encryption: no KMS key to grant to every producer and consumer, and no per-request KMS cost.
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
      retentionPeriod: Duration.seconds(MESSAGE_RETENTION_SECONDS),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...secure,
      queueName: props.queueName,
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(props.entry)),
      // As long as its DLQ: a backlog is never dropped before it can be dead-lettered (the alarm on the oldest
      // message's age, monitoring-stack.ts, says long before that that the queue is not draining).
      retentionPeriod: Duration.seconds(MESSAGE_RETENTION_SECONDS),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.entry.maxReceiveCount },
    });
  }
}
