import type { SQSEvent } from 'aws-lambda';

let sequence = 0;

/**
 * An SQS event as Lambda (and the local poller) hands it to a worker: one record per body, each with a message id
 * of its own (workers report failures by it), received once, from the named queue.
 */
export function sqsEvent(queue: string, bodies: readonly string[]): SQSEvent {
  return {
    Records: bodies.map((body) => ({
      messageId: `${queue}-${Date.now()}-${sequence++}`,
      receiptHandle: 'handle',
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
      awsRegion: 'us-east-1',
    })),
  };
}
