import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { LOCAL_REGION } from './emulators.ts';

/** Received SQS messages in the shape Lambda's event source mapping hands a worker (`SQSEvent.Records`). */
export function toRecord(message: Message, arn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attributes.AWSTraceHeader ? { AWSTraceHeader: attributes.AWSTraceHeader } : {}),
      ...(attributes.SequenceNumber ? { SequenceNumber: attributes.SequenceNumber } : {}),
      ...(attributes.MessageGroupId ? { MessageGroupId: attributes.MessageGroupId } : {}),
      ...(attributes.MessageDeduplicationId
        ? { MessageDeduplicationId: attributes.MessageDeduplicationId }
        : {}),
    },
    messageAttributes: toRecordAttributes(message.MessageAttributes ?? {}),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: arn,
    awsRegion: LOCAL_REGION,
  };
}

/** The SDK's shape (`StringValue`, bytes) → the event's shape (`stringValue`, base64), as Lambda delivers it. */
function toRecordAttributes(attributes: Record<string, MessageAttributeValue>): SQSMessageAttributes {
  const result: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    result[name] = {
      dataType: value.DataType ?? 'String',
      ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
      ...(value.BinaryValue === undefined
        ? {}
        : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((bytes) => Buffer.from(bytes).toString('base64')),
    };
  }
  return result;
}

/** The queue's ARN from its URL, when the emulator does not answer it. */
export function fallbackArn(url: string): string {
  return `arn:aws:sqs:${LOCAL_REGION}:000000000000:${url.split('/').pop() ?? 'unknown'}`;
}
