import type { MailMessage } from '../../messages/index.ts';
import { sendMail } from '../../integrations/mailer.ts';
import { logger } from '../../observability/logger.ts';
import { isMailSent, recordMailSent } from './mail-delivery-repository.ts';

/**
 * Sends one queued e-mail at most once per dedupe id, as far as SQS's at-least-once delivery allows: a message
 * whose marker exists is skipped; the marker is written (conditionally) only after SES accepted the send, so a
 * failed send leaves no marker and the redelivery retries it. The window between a send and its marker (a crash
 * there) can still produce a duplicate; SES offers no idempotency key to close it.
 */
export async function deliverMail(message: MailMessage): Promise<'sent' | 'skipped'> {
  if (await isMailSent(message.dedupe_id)) {
    logger.info('mail already sent; skipped', { dedupeId: message.dedupe_id });
    return 'skipped';
  }
  const sesMessageId = await sendMail({ to: message.to, subject: message.subject, text: message.text });
  if (!(await recordMailSent(message.dedupe_id, sesMessageId))) {
    logger.warn('mail sent by two deliveries at once', { dedupeId: message.dedupe_id });
  }
  return 'sent';
}
