/**
 * The local stand-in for Lambda's SQS event source mapping: per catalogued queue, long-poll, hand the worker a real
 * `SQSEvent` batch, delete what succeeded. Failures are left alone on purpose: the queue's visibility timeout makes
 * them visible again and its redrive policy moves them to the DLQ after `maxReceiveCount`, exactly as in the cloud,
 * so retry behaviour is the emulator's, not ours.
 *
 * Differences from the cloud, accepted locally: one batch at a time per queue (no `maxConcurrency` scaling), no
 * batching window, and a timed-out handler is reported as failed but keeps running (a process cannot kill a promise).
 */
import { randomUUID } from 'node:crypto';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { DEFAULT_MEMORY_MB, type QueueEntry } from '../../shared/catalogue/index.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './emulators.ts';

export interface PolledQueue {
  readonly entry: QueueEntry;
  readonly url: string;
  /** The queue's ARN for `eventSourceARN`; read from the queue when omitted. */
  readonly arn?: string;
  /**
   * Overrides the visibility timeout per ReceiveMessage (the queue keeps its own). Tests use 1 s so a redrive
   * through `maxReceiveCount` deliveries takes seconds instead of `maxReceiveCount` x 6 x the worker timeout.
   */
  readonly visibilityTimeoutSeconds?: number;
  /** Long-poll wait per ReceiveMessage; default 1 s, which also bounds how long `stop()` waits. */
  readonly waitTimeSeconds?: number;
}

/** What a worker's handler may return: failures to retry, or nothing when the whole batch succeeded. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers typed `Promise<void>` must be accepted, as Lambda does.
export type WorkerResult = SQSBatchResponse | undefined | void;

/** Runs a worker on one batch; the default imports `entry.entry` and calls its exported `handler`. */
export type WorkerInvoker = (entry: QueueEntry, event: SQSEvent, context: Context) => Promise<WorkerResult>;

export interface PollerOptions {
  readonly sqsEndpoint: string;
  readonly queues: readonly PolledQueue[];
  readonly invoke?: WorkerInvoker;
}

export interface Poller {
  /** Stops receiving, waits for batches in flight to finish (bounded by their timeout). */
  stop(): Promise<void>;
  /**
   * Resolves once every queue has answered an empty receive that started after this call, with no batch in flight.
   * Messages hidden by a visibility timeout (failed, awaiting redelivery) count as "empty": wait for a DLQ directly.
   */
  idle(): Promise<void>;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** SQS returns at most 10 messages per ReceiveMessage; larger batch sizes are filled with further receives. */
const MAX_MESSAGES_PER_RECEIVE = 10;
const ERROR_BACKOFF_MS = 1000;

interface QueueState {
  /** Sequence number of the receive most recently started. */
  started: number;
  /** Sequence number of the latest receive that came back empty; -1 while this queue has work. */
  lastEmpty: number;
}

export function startPoller(options: PollerOptions): Poller {
  const sqs = new SQSClient({
    endpoint: options.sqsEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const invoke = options.invoke ?? importAndInvoke;
  const abort = new AbortController();
  const states = options.queues.map<QueueState>(() => ({ started: 0, lastEmpty: -1 }));
  const idleWaiters = new Set<{ targets: number[]; resolve: () => void }>();

  const checkIdle = () => {
    for (const waiter of idleWaiters) {
      if (states.every((state, index) => state.lastEmpty >= (waiter.targets[index] ?? 0))) {
        idleWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const loops = options.queues.map(async (queue, index) => {
    const state = states[index]!;
    const arn = queue.arn ?? (await readArn(sqs, queue.url).catch(() => fallbackArn(queue.url)));
    while (!abort.signal.aborted) {
      const sequence = ++state.started;
      let messages: Message[];
      try {
        messages = await receiveBatch(sqs, queue, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) break;
        process.stderr.write(
          `${JSON.stringify({ source: 'local-poller', queue: queue.entry.name, level: 'error', message: 'receive failed', error: String(error) })}\n`,
        );
        await sleep(ERROR_BACKOFF_MS, abort.signal);
        continue;
      }
      if (messages.length === 0) {
        state.lastEmpty = sequence;
        checkIdle();
        continue;
      }
      // Work found: forget the earlier empty sighting, so idle() needs a fresh one after this batch (whose worker
      // may also have sent to another queue that idle() already counted as empty).
      state.lastEmpty = -1;
      await runBatch(sqs, queue, arn, messages, invoke);
    }
  });

  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(loops);
      sqs.destroy();
      // Nothing will ever become idle again; release anyone still waiting.
      for (const waiter of idleWaiters) waiter.resolve();
      idleWaiters.clear();
    },
    idle() {
      if (options.queues.length === 0 || abort.signal.aborted) return Promise.resolve();
      return new Promise<void>((resolveIdle) => {
        // A receive already under way may have started before the caller's message was sent: require a later one.
        idleWaiters.add({ targets: states.map((state) => state.started + 1), resolve: resolveIdle });
      });
    },
  };
}

async function receiveBatch(sqs: SQSClient, queue: PolledQueue, signal: AbortSignal): Promise<Message[]> {
  const messages: Message[] = [];
  const batchSize = Math.max(1, queue.entry.batchSize);
  while (messages.length < batchSize) {
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: Math.min(MAX_MESSAGES_PER_RECEIVE, batchSize - messages.length),
        // Only the first receive of a batch waits; the rest top it up from what is already there.
        WaitTimeSeconds: messages.length === 0 ? (queue.waitTimeSeconds ?? 1) : 0,
        ...(queue.visibilityTimeoutSeconds === undefined
          ? {}
          : { VisibilityTimeout: queue.visibilityTimeoutSeconds }),
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: signal },
    );
    const page = received.Messages ?? [];
    messages.push(...page);
    if (page.length === 0) break;
  }
  return messages;
}

async function runBatch(
  sqs: SQSClient,
  queue: PolledQueue,
  arn: string,
  messages: Message[],
  invoke: WorkerInvoker,
): Promise<void> {
  const { entry } = queue;
  const event: SQSEvent = { Records: messages.map((message) => toRecord(message, arn)) };
  const startedAt = Date.now();
  const timeoutMs = entry.timeoutSeconds * 1000;
  const context = lambdaContext(entry, startedAt + timeoutMs);
  let failedIds: Set<string>;
  let outcome: 'ok' | 'partial' | 'error' | 'timeout' | 'invalid_response';
  let errorText: string | undefined;
  try {
    const response = await withTimeout(invoke(entry, event, context), timeoutMs);
    const failures = response?.batchItemFailures ?? [];
    const known = new Set(event.Records.map((record) => record.messageId));
    // Lambda treats a failure naming no record of the batch as a failure of the whole batch.
    if (failures.some((failure) => !failure.itemIdentifier || !known.has(failure.itemIdentifier))) {
      failedIds = known;
      outcome = 'invalid_response';
    } else {
      failedIds = new Set(failures.map((failure) => failure.itemIdentifier));
      outcome = failedIds.size === 0 ? 'ok' : 'partial';
    }
  } catch (error) {
    failedIds = new Set(event.Records.map((record) => record.messageId));
    outcome = error instanceof WorkerTimeout ? 'timeout' : 'error';
    errorText = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }

  const succeeded = event.Records.filter((record) => !failedIds.has(record.messageId));
  if (succeeded.length > 0) {
    // DeleteMessageBatch takes at most 10 entries.
    for (let offset = 0; offset < succeeded.length; offset += MAX_MESSAGES_PER_RECEIVE) {
      const chunk = succeeded.slice(offset, offset + MAX_MESSAGES_PER_RECEIVE);
      await sqs
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: queue.url,
            Entries: chunk.map((record, index) => ({
              Id: String(index),
              ReceiptHandle: record.receiptHandle,
            })),
          }),
        )
        .catch((error: unknown) => {
          // Not deleting means a redelivery, which workers must tolerate anyway (at-least-once delivery).
          process.stderr.write(
            `${JSON.stringify({ source: 'local-poller', queue: entry.name, level: 'error', message: 'delete failed', error: String(error) })}\n`,
          );
        });
    }
  }

  if (process.env.LOG_LEVEL === 'debug') {
    process.stderr.write(
      `${JSON.stringify({
        source: 'local-poller',
        level: 'debug',
        queue: entry.name,
        requestId: context.awsRequestId,
        records: event.Records.length,
        failed: failedIds.size,
        outcome,
        durationMs: Date.now() - startedAt,
        ...(errorText ? { error: errorText } : {}),
      })}\n`,
    );
  }
}

function toRecord(message: Message, arn: string): SQSRecord {
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

function lambdaContext(entry: QueueEntry, deadline: number): Context {
  const functionName = `local-worker-${entry.name}`;
  const unsupported = () => {
    throw new Error('Callback-style context methods are not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(entry.memoryMb ?? DEFAULT_MEMORY_MB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${functionName}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

type WorkerModule = {
  handler?: (event: SQSEvent, context: Context) => Promise<WorkerResult>;
};
const workerModules = new Map<string, Promise<WorkerModule>>();

/** Imports the worker once per process (a warm Lambda keeps its module too) and calls its `handler`. */
async function importAndInvoke(entry: QueueEntry, event: SQSEvent, context: Context): Promise<WorkerResult> {
  const path = isAbsolute(entry.entry) ? entry.entry : resolve(repoRoot, entry.entry);
  let loaded = workerModules.get(path);
  if (!loaded) {
    loaded = import(pathToFileURL(path).href) as Promise<WorkerModule>;
    workerModules.set(path, loaded);
  }
  const module = await loaded;
  if (typeof module.handler !== 'function') throw new Error(`${entry.entry} exports no handler function`);
  return module.handler(event, context);
}

async function readArn(sqs: SQSClient, url: string): Promise<string> {
  const read = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return read.Attributes?.QueueArn ?? fallbackArn(url);
}

function fallbackArn(url: string): string {
  return `arn:aws:sqs:${LOCAL_REGION}:000000000000:${url.split('/').pop() ?? 'unknown'}`;
}

class WorkerTimeout extends Error {
  override name = 'WorkerTimeout';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WorkerTimeout(`worker did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });
}
