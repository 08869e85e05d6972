/**
 * The local stand-in for Lambda's SQS event source mapping: per catalogued queue, long-poll, hand the worker a real
 * `SQSEvent` batch, delete what succeeded. Failures are left alone on purpose: the queue's visibility timeout makes
 * them visible again and its redrive policy moves them to the DLQ after `maxReceiveCount`, exactly as in the cloud,
 * so retry behaviour is the emulator's, not ours.
 *
 * The local Lambda runtime (lambda-runtime.ts) runs each batch: the worker's module, context, timeout and
 * invocation scope are the same as for the gateway's functions.
 *
 * Like Lambda's event source mapping, up to the queue's `maxConcurrency` batches run at once (one receive loop per
 * slot). Differences from the cloud, accepted locally: the slots are always all polling (no gradual scaling), no
 * batching window, and a timed-out handler is reported as failed but keeps running (a process cannot kill a promise).
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { QueueEntry } from '../../shared/catalogue/index.ts';
import { workerSpec } from '../function-specs.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './emulators.ts';
import type { GatewayInvocation } from './gateway.ts';
import { type Invocation, invokeFunction } from './lambda-runtime.ts';
import { fallbackArn, toRecord } from './sqs-records.ts';
import { interpret } from './batch-result.ts';

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

/** Runs a worker on one batch instead of the entry's exported `handler` (tests inject faults this way). */
export type WorkerInvoker = (entry: QueueEntry, event: SQSEvent, context: Context) => Promise<WorkerResult>;

/** How a batch invocation ended: in-process (with its context) or in a bundled function's process. */
export type BatchInvocation = Invocation<WorkerResult> | GatewayInvocation<WorkerResult>;

export interface PollerOptions {
  readonly sqsEndpoint: string;
  readonly queues: readonly PolledQueue[];
  readonly invoke?: WorkerInvoker;
  /** Runs a batch somewhere else than in this process (the bundled mode's function processes). */
  readonly run?: (queue: PolledQueue, event: SQSEvent) => Promise<BatchInvocation>;
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

/** SQS returns at most 10 messages per ReceiveMessage; larger batch sizes are filled with further receives. */
const MAX_MESSAGES_PER_RECEIVE = 10;
const ERROR_BACKOFF_MS = 1000;

interface QueueState {
  /** Sequence number of the receive most recently started. */
  started: number;
  /** Sequence number of the latest receive that came back empty with no batch in flight; -1 while there is work. */
  lastEmpty: number;
  /** Batches of this queue being processed now. */
  inFlight: number;
}

export function startPoller(options: PollerOptions): Poller {
  const sqs = new SQSClient({
    endpoint: options.sqsEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const { invoke, run } = options;
  const abort = new AbortController();
  const polled = options.queues.map((queue) => {
    const state: QueueState = { started: 0, lastEmpty: -1, inFlight: 0 };
    return { queue, state };
  });
  const states = polled.map(({ state }) => state);
  const idleWaiters = new Set<{ targets: number[]; resolve: () => void }>();

  const checkIdle = () => {
    for (const waiter of idleWaiters) {
      if (states.every((state, index) => state.lastEmpty >= (waiter.targets[index] ?? 0))) {
        idleWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const loops = polled.flatMap(({ queue, state }) => {
    const arn = queue.arn
      ? Promise.resolve(queue.arn)
      : readArn(sqs, queue.url).catch(() => fallbackArn(queue.url));
    const slot = async () => {
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
          // Empty only counts while no other slot of the queue holds a batch (which may send more work).
          if (state.inFlight === 0) state.lastEmpty = Math.max(state.lastEmpty, sequence);
          checkIdle();
          continue;
        }
        // Work found: forget the earlier empty sighting, so idle() needs a fresh one after this batch (whose worker
        // may also have sent to another queue that idle() already counted as empty).
        state.lastEmpty = -1;
        state.inFlight += 1;
        try {
          await runBatch(sqs, queue, await arn, messages, invoke, run);
        } finally {
          state.inFlight -= 1;
        }
      }
    };
    return Array.from({ length: Math.max(1, queue.entry.maxConcurrency ?? 1) }, slot);
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
  invoke: WorkerInvoker | undefined,
  run: PollerOptions['run'],
): Promise<void> {
  const { entry } = queue;
  const event: SQSEvent = { Records: messages.map((message) => toRecord(message, arn)) };
  const startedAt = Date.now();
  const invocation: BatchInvocation = run
    ? await run(queue, event)
    : await invokeFunction<SQSEvent, WorkerResult>(workerSpec(entry), event, {
        ...(invoke ? { handler: (batch: SQSEvent, context: Context) => invoke(entry, batch, context) } : {}),
      });
  const { failedIds, outcome, errorText } = interpret(invocation, event, entry);

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
        ...('context' in invocation ? { requestId: (invocation.context as Context).awsRequestId } : {}),
        records: event.Records.length,
        failed: failedIds.size,
        outcome,
        durationMs: Date.now() - startedAt,
        ...(errorText ? { error: errorText } : {}),
      })}\n`,
    );
  }
}

async function readArn(sqs: SQSClient, url: string): Promise<string> {
  const read = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return read.Attributes?.QueueArn ?? fallbackArn(url);
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
