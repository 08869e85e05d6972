import { randomUUID } from 'node:crypto';
import { env } from '../../config/env.ts';
import { appLink } from '../app-link.ts';
import { sendMail } from '../../integrations/mailer.ts';
import { findUserById } from '../users/index.ts';
import { composeDigest, DIGEST_LISTED } from './compose-digest.ts';
import type { DigestCadence } from './digest-period.ts';
import { claimDigestRun, finishDigestRun, releaseDigestRun } from './digest-run-repository.ts';
import { wantsEmail } from './notification-preferences.ts';
import { findDigestState } from './notification-preferences-repository.ts';
import { getNotificationStats, queryUnreadSince } from './notification-repository.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

/** A sender that crashed mid-send gives its claim up after this long; the redelivered message then sends. */
const CLAIM_LEASE_MS = 5 * 60 * 1000;
/** Unread notifications read for one digest: enough to list DIGEST_LISTED of the e-mail-worthy ones and see more. */
const READ_LIMIT = 100;

export class DigestBusy extends Error {
  override name = 'DigestBusy';
}

/**
 * One member's digest of one period: at most one e-mail, whatever the redeliveries (a claim with a lease before
 * sending). It lists the unread notifications created since the member's last digest whose type the member wants
 * by e-mail (`new_reply` follows `new_comment`; in-app-only types never), and sends nothing when there are none. A
 * member who changed frequency or is no longer active is skipped, and so is a period already done. Another delivery
 * holding a live claim makes this one fail (DigestBusy), so the queue retries it and it then finds the period done.
 */
export async function sendMemberDigest(message: {
  frequency: DigestCadence;
  period: string;
  user_id: number;
}): Promise<'sent' | 'empty' | 'skipped'> {
  const { frequency, period, user_id: userId } = message;
  const [user, state] = await Promise.all([findUserById(userId), findDigestState(userId)]);
  if (user === undefined) return 'skipped';
  if (user.status !== 'active' || state.preferences.digest_frequency !== frequency) return 'skipped';
  const claimId = randomUUID();
  const claim = await claimDigestRun(userId, frequency, period, claimId, CLAIM_LEASE_MS);
  if (claim === 'done') return 'skipped';
  if (claim === 'busy') throw new DigestBusy(`digest ${frequency} ${period} of user ${userId} is being sent`);
  try {
    const stats = await getNotificationStats(userId);
    const unread = await queryUnreadSince(userId, state.lastDigestAt[frequency], stats, READ_LIMIT);
    const wanted = unread.filter((item) => wantsEmail(state.preferences, item.type));
    // Newest first: the first unread notification is the newest the digest covers.
    const [newest] = unread;
    if (wanted.length === 0 || newest === undefined) {
      await finishDigestRun(userId, frequency, period, claimId, { state: 'empty' });
      return 'empty';
    }
    const base = env().PUBLIC_BASE_URL;
    const mail = composeDigest({
      displayName: user.display_name,
      frequency,
      items: wanted.slice(0, DIGEST_LISTED),
      more: wanted.length > DIGEST_LISTED || unread.length === READ_LIMIT,
      link: appLink,
      unsubscribeUrl: `${base}/notifications/digest/unsubscribe?token=${await unsubscribeToken(userId)}`,
    });
    const sesMessageId = await sendMail({ to: user.email, ...mail });
    await finishDigestRun(userId, frequency, period, claimId, {
      state: 'sent',
      newestIncluded: newest.created_at,
      sesMessageId,
    });
    return 'sent';
  } catch (error) {
    await releaseDigestRun(userId, frequency, period, claimId);
    throw error;
  }
}
