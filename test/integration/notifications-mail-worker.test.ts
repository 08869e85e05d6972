import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../support/sqs-event.ts';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { handler } from '../../functions/workers/send-mail.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { mailDeliveryKey } from '../../shared/db/keys/notifications.ts';
import { MAIL_CLAIM_LEASE_MS } from '../../shared/domain/notifications/mail-delivery-repository.ts';
import { mailerClient } from '../../shared/integrations/mailer.ts';
import type { MailMessage } from '../../shared/messages/index.ts';

/** The mail worker called directly with SQS events, against DynamoDB Local and the SES emulator. */

const sesStore = () => `${inject('stack').sesEndpoint}/store`;

async function mailsTo(address: string): Promise<Array<{ subject: string; destination: { to: string[] } }>> {
  const response = await fetch(sesStore());
  const store = (await response.json()) as {
    emails: Array<{ subject: string; destination: { to: string[] } }>;
  };
  return store.emails.filter((email) => email.destination.to.includes(address));
}

const eventOf = (...bodies: string[]): SQSEvent => sqsEvent('mail', bodies);

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const message = (overrides: Partial<MailMessage> = {}): MailMessage => {
  const id = unique();
  return {
    dedupe_id: `test-${id}`,
    to: `worker_${id}@example.com`,
    subject: 'You have a new comment',
    text: 'Somebody commented.',
    ...overrides,
  };
};

const FAULT = 'inject-ses-failure';

afterEach(() => {
  mailerClient().middlewareStack.remove(FAULT);
});

describe('send-mail worker', () => {
  it('sends one e-mail and skips a redelivery of the same message', async () => {
    const mail = message();
    const first = await handler(eventOf(JSON.stringify(mail)));
    expect(first.batchItemFailures).toEqual([]);
    expect(await mailsTo(mail.to)).toHaveLength(1);

    const redelivered = await handler(eventOf(JSON.stringify(mail)));
    expect(redelivered.batchItemFailures).toEqual([]);
    const mails = await mailsTo(mail.to);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(mail.subject);
  });

  it('reports a failed SES send as a batch item failure and sends the others of the batch', async () => {
    const failing = message();
    const fine = message();
    mailerClient().middlewareStack.add(
      (next) => async (args) => {
        const input = (args as { input: { Destination?: { ToAddresses?: string[] } } }).input;
        if (input.Destination?.ToAddresses?.includes(failing.to)) {
          throw Object.assign(new Error('Injected SES failure'), { name: 'ServiceUnavailable' });
        }
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const event = eventOf(JSON.stringify(failing), JSON.stringify(fine));
    const result = await handler(event);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: event.Records[0]?.messageId }]);
    expect(await mailsTo(failing.to)).toHaveLength(0);
    expect(await mailsTo(fine.to)).toHaveLength(1);

    // The failed send released its claim, so the redelivery sends at once (no lease to wait out).
    mailerClient().middlewareStack.remove(FAULT);
    const retried = await handler(eventOf(JSON.stringify(failing)));
    expect(retried.batchItemFailures).toEqual([]);
    expect(await mailsTo(failing.to)).toHaveLength(1);
  });

  it('reports malformed messages (not JSON, wrong shape) as batch item failures', async () => {
    const good = message();
    const event = eventOf('not json', JSON.stringify({ to: 'nobody' }), JSON.stringify(good));
    const result = await handler(event);
    expect(result.batchItemFailures).toEqual([
      { itemIdentifier: event.Records[0]?.messageId },
      { itemIdentifier: event.Records[1]?.messageId },
    ]);
    expect(await mailsTo(good.to)).toHaveLength(1);
  });

  it('sends once when several deliveries of one message run at the same moment', async () => {
    const mail = message();
    const events = Array.from({ length: 5 }, () => eventOf(JSON.stringify(mail)));
    // Hold SES a moment so every delivery has claimed (or found the claim) before the first send completes.
    mailerClient().middlewareStack.add(
      (next) => async (args) => {
        await new Promise((done) => setTimeout(done, 200));
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const results = await Promise.all(events.map((event) => handler(event)));
    expect(await mailsTo(mail.to)).toHaveLength(1);

    // The deliveries that found the claim taken are not dropped: each is a batch item failure (SQS delivers it
    // again later)...
    const deferred = events.filter((_, index) => results[index]?.batchItemFailures.length);
    expect(deferred).toHaveLength(events.length - 1);
    for (const event of deferred) {
      expect(results[events.indexOf(event)]?.batchItemFailures).toEqual([
        { itemIdentifier: event.Records[0]?.messageId },
      ]);
      // ...and when redelivered, finds the e-mail sent and is done.
      expect((await handler(event)).batchItemFailures).toEqual([]);
    }
    expect(await mailsTo(mail.to)).toHaveLength(1);
  });

  it('takes over a claim whose lease expired (a crashed sender) and sends', async () => {
    const mail = message();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...mailDeliveryKey(mail.dedupe_id),
          entity: 'mail_delivery',
          state: 'sending',
          claim_id: 'crashed-sender',
          claimed_until: Date.now() - 1,
        },
      }),
    );
    const result = await handler(eventOf(JSON.stringify(mail)));
    expect(result.batchItemFailures).toEqual([]);
    expect(await mailsTo(mail.to)).toHaveLength(1);
    const stored = await db().send(
      new GetCommand({ TableName: tableName(), Key: mailDeliveryKey(mail.dedupe_id), ConsistentRead: true }),
    );
    expect(stored.Item).toMatchObject({ state: 'sent' });
    expect(stored.Item).not.toHaveProperty('claim_id');
  });

  it('leaves a live claim alone: the delivery comes back later and nothing is sent meanwhile', async () => {
    const mail = message();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...mailDeliveryKey(mail.dedupe_id),
          entity: 'mail_delivery',
          state: 'sending',
          claim_id: 'live-sender',
          claimed_until: Date.now() + MAIL_CLAIM_LEASE_MS,
        },
      }),
    );
    const event = eventOf(JSON.stringify(mail));
    const result = await handler(event);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: event.Records[0]?.messageId }]);
    expect(await mailsTo(mail.to)).toHaveLength(0);
  });
});
