import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../support/sqs-event.ts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as sendMailWorker } from '../../functions/workers/send-mail.ts';
import { emitNotification } from '../../shared/domain/notifications/emit-notification.ts';
import { mailerClient } from '../../shared/integrations/mailer.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import { createTestUser } from '../support/api.ts';
import { type CapturedOutput, captureOutput } from '../support/log-capture.ts';

/**
 * Business metrics reach CloudWatch as embedded metric format (EMF) lines: namespace CommunityApi, the function
 * as the `service` dimension, published once per invocation by the function factories.
 */
const FAULT = 'inject-ses-failure';
let output: CapturedOutput | undefined;

beforeAll(() => {
  // The local stack keeps EMF off so it does not drown the logs; this process's publishers are made on their
  // first publish, after this.
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

afterEach(() => {
  output?.restore();
  mailerClient().middlewareStack.remove(FAULT);
});

type EmfLine = Record<string, unknown> & {
  _aws: {
    CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }>;
  };
};
const emfLines = (captured: CapturedOutput): EmfLine[] =>
  captured.lines().filter((line): line is EmfLine => typeof line._aws === 'object');

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
function mailEvent(): SQSEvent {
  const id = unique();
  const body = JSON.stringify({
    dedupe_id: `metrics-${id}`,
    to: `m_${id}@example.com`,
    subject: 's',
    text: 't',
  });
  return sqsEvent('mail', [body]);
}

describe('business metrics', () => {
  it('publishes MailSent for the mail worker', async () => {
    output = captureOutput();
    await sendMailWorker(mailEvent());
    output.restore();
    const [line, ...others] = emfLines(output);
    expect(others).toEqual([]);
    expect(line).toMatchObject({ service: 'mailWorker', MailSent: 1 });
    expect(line?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'CommunityApi',
      Dimensions: [['service']],
      Metrics: [{ Name: 'MailSent', Unit: 'Count' }],
    });
  });

  it('publishes MailFailed when SES refuses', async () => {
    mailerClient().middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('Injected SES failure'), { name: 'ServiceUnavailable' });
      },
      { step: 'initialize', name: FAULT },
    );
    output = captureOutput();
    await sendMailWorker(mailEvent());
    output.restore();
    expect(emfLines(output)).toEqual([expect.objectContaining({ service: 'mailWorker', MailFailed: 1 })]);
  });

  it('publishes NotificationsEmitted per type, under the emitting function', async () => {
    const [actor, first, second] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    const emission = {
      actorId: actor.id,
      title: 't',
      message: 'm',
      actionUrl: '/x',
      objectId: 1,
      objectType: 'space',
    };
    output = captureOutput();
    await observeInvocation('emittingFunction', undefined, {}, async () => {
      await emitNotification({ ...emission, type: 'space_join', recipientId: first.id });
      await emitNotification({ ...emission, type: 'space_join', recipientId: second.id });
      await emitNotification({ ...emission, type: 'lesson_complete', recipientId: first.id });
    });
    output.restore();
    const lines = emfLines(output);
    expect(lines.map(({ _aws, ...fields }) => fields)).toEqual([
      { service: 'emittingFunction', type: 'space_join', NotificationsEmitted: 2 },
      { service: 'emittingFunction', type: 'lesson_complete', NotificationsEmitted: 1 },
    ]);
    expect(lines[0]?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'CommunityApi',
      Dimensions: [['service', 'type']],
    });
  });
});
