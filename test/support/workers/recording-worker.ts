/**
 * A worker for poller tests. It records every record it is handed (on globalThis, so the test that started the
 * poller in the same process can read them) and reports as failed each record whose body is `{"fail":true}`,
 * so the test can watch redelivery and the redrive to the DLQ.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

const KEY = Symbol.for('community-api.test.recording-worker');
type WithDeliveries = typeof globalThis & { [KEY]?: SQSRecord[] };

/** Every record delivered so far in this process, in delivery order. */
export function deliveries(): SQSRecord[] {
  const holder = globalThis as WithDeliveries;
  holder[KEY] ??= [];
  return holder[KEY];
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  deliveries().push(...event.Records);
  const failures = event.Records.filter(
    (record) => (JSON.parse(record.body) as { fail?: boolean }).fail === true,
  );
  return { batchItemFailures: failures.map((record) => ({ itemIdentifier: record.messageId })) };
}
