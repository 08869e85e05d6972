import { sendMail } from '../../integrations/mailer.ts';
import type { MailMessage } from '../../messages/index.ts';
import { logger } from '../../observability/logger.ts';
import { businessMetrics } from '../../observability/metrics.ts';
import { claimMailDelivery, markMailSent, releaseMailClaim } from './mail-delivery-repository.ts';

/**
 * Sends one queued e-mail once per dedupe id, whatever SQS's at-least-once delivery does:
 *
 * 1. Claim the delivery (conditional write, state `sending` with a lease). Only one concurrent delivery wins.
 *    - Already `sent`: skipped (`'skipped'`).
 *    - Another delivery holds a live claim: `'busy'`. The worker reports it as a batch item failure, so SQS
 *      delivers it again later, when it finds `sent` (skipped) or, if that sender failed, claims and sends.
 * 2. Send through SES. On failure, release the claim (so the retry need not wait for the lease) and throw.
 * 3. Mark `sent` under the claim.
 *
 * What remains: a sender that crashes between SES's acceptance and step 3 leaves a claim that expires, and the
 * redelivery sends again. SES offers no idempotency key to close that window.
 */
export async function deliverMail(message: MailMessage): Promise<'sent' | 'skipped' | 'busy'> {
  const claim = await claimMailDelivery(message.dedupe_id);
  if (claim.outcome === 'sent') {
    logger.info('mail already sent; skipped', { dedupeId: message.dedupe_id });
    return 'skipped';
  }
  if (claim.outcome === 'busy') {
    logger.info('mail being sent by another delivery; retry later', { dedupeId: message.dedupe_id });
    return 'busy';
  }
  let sesMessageId: string | undefined;
  try {
    sesMessageId = await sendMail({ to: message.to, subject: message.subject, text: message.text });
  } catch (error) {
    businessMetrics.mailFailed();
    await releaseMailClaim(message.dedupe_id, claim.claimId).catch((releaseError: unknown) => {
      // The lease still expires; the retry only waits for it.
      logger.warn('could not release the mail claim', { dedupeId: message.dedupe_id, error: releaseError });
    });
    throw error;
  }
  businessMetrics.mailSent();
  if (!(await markMailSent(message.dedupe_id, claim.claimId, sesMessageId))) {
    logger.warn('mail claim expired before the send was recorded; it may have been sent twice', {
      dedupeId: message.dedupe_id,
    });
  }
  return 'sent';
}
