import { describe, expect, inject, it } from 'vitest';
import { digestPeriod } from '../../shared/domain/notifications/digest-period.ts';
import { DigestBusy, sendMemberDigest } from '../../shared/domain/notifications/send-member-digest.ts';
import { publish } from '../../shared/integrations/queue-publisher.ts';
import type { NotificationType } from '../../shared/vocabulary/notifications.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { emitStored } from '../support/notifications.ts';

/**
 * Digest e-mails through the emulators: a plan message (as the schedule or `digest:run` puts it) fans out per
 * subscriber, the worker sends one e-mail per member and period, read back from the SES emulator's store.
 * Each test uses periods of its own, so files running in parallel never share a run.
 */

type StoredMail = { subject: string; destination: { to: string[] }; body: { text?: string; html?: string } };

/** Digest e-mails only: each notification may also have sent its own e-mail through the mail queue. */
async function mailsTo(address: string): Promise<StoredMail[]> {
  const store = (await (await fetch(`${inject('sesUrl')}/store`)).json()) as { emails: StoredMail[] };
  return store.emails.filter(
    (email) => email.destination.to.includes(address) && email.subject.startsWith('Your daily digest'),
  );
}

async function waitForMails(address: string, count: number, timeoutMs = 20_000): Promise<StoredMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let periodSeq = 0;
/** A daily period no other test or real clock uses. */
const uniquePeriod = () =>
  `2099-${String(1 + (process.pid % 12)).padStart(2, '0')}-${String(1 + (periodSeq++ % 28)).padStart(2, '0')}`;

const emailOf = (user: TestUser) => `${user.username}@example.com`;

/** Emits one notification and waits until the notify worker has stored it (digests read stored notifications). */
async function emit(recipient: TestUser, actor: TestUser, type: NotificationType, title: string) {
  await emitStored(recipient, [
    {
      type,
      actorId: actor.id,
      title,
      message: 'Open the community to see it.',
      actionUrl: '/feeds/1',
      objectId: 1,
      objectType: 'feed',
    },
  ]);
}

const subscribe = (user: TestUser, body: Record<string, unknown>) =>
  api('PUT', '/profile/notification-preferences', { as: user, body });

/** Runs one daily digest for `period` and waits long enough for every subscriber's message to be handled. */
async function runDigest(period: string, waitFor?: { address: string; count: number }) {
  await publish('digest', { kind: 'plan', frequency: 'daily', period });
  if (waitFor) return waitForMails(waitFor.address, waitFor.count);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return [];
}

describe('daily digest e-mails', () => {
  it('one e-mail per member and period, listing unread notifications the member wants by e-mail', async () => {
    const [member, quiet, never, actor] = await Promise.all([
      createTestUser({ displayName: 'Digest <Reader>' }),
      createTestUser(),
      createTestUser(),
      createTestUser(),
    ]);
    // E-mail digests replace nothing: `new_reaction` is off by default, `space_join` is in-app only.
    await subscribe(member, { digest_frequency: 'daily' });
    await subscribe(quiet, { digest_frequency: 'daily' });
    await subscribe(never, { digest_frequency: 'never' });
    await emit(member, actor, 'new_comment', 'Ann commented <b>here</b>');
    await emit(member, actor, 'new_reply', 'Bob replied');
    await emit(member, actor, 'new_reaction', 'Cid liked your post');
    await emit(member, actor, 'space_join', 'Dee joined your space');
    await emit(never, actor, 'new_comment', 'Never mailed');

    const period = uniquePeriod();
    const mails = await runDigest(period, { address: emailOf(member), count: 1 });
    expect(mails).toHaveLength(1);
    const [mail] = mails as [StoredMail];
    expect(mail.subject).toBe('Your daily digest: 2 unread notifications');
    expect(mail.body.text).toContain('Ann commented <b>here</b>');
    expect(mail.body.text).toContain('Bob replied');
    expect(mail.body.text).not.toContain('Cid liked');
    expect(mail.body.text).not.toContain('Dee joined');
    expect(mail.body.html).toContain('Ann commented &lt;b&gt;here&lt;/b&gt;');
    expect(mail.body.html).toContain('Digest &lt;Reader&gt;');
    expect(mail.body.html).not.toContain('<b>here</b>');
    expect(mail.body.text).toMatch(/\/notifications\/digest\/unsubscribe\?token=\d+\.[A-Za-z0-9_-]{43}/);

    // The same period again (a second schedule tick, a redelivery): nothing more.
    await runDigest(period);
    expect(await mailsTo(emailOf(member))).toHaveLength(1);
    // Nothing new for `quiet`, and `never` is not a subscriber.
    expect(await mailsTo(emailOf(quiet))).toHaveLength(0);
    expect(await mailsTo(emailOf(never))).toHaveLength(0);

    // The next period lists only what arrived since the last digest.
    await emit(member, actor, 'mention', 'Eve mentioned you');
    const next = await runDigest(uniquePeriod(), { address: emailOf(member), count: 2 });
    expect(next).toHaveLength(2);
    expect(next[1]?.subject).toBe('Your daily digest: 1 unread notification');
    expect(next[1]?.body.text).toContain('Eve mentioned you');
    expect(next[1]?.body.text).not.toContain('Ann commented');

    // The unsubscribe link sets `never`: no further digests.
    const link = /(\/notifications\/digest\/unsubscribe\?token=[^\s]+)/.exec(mail.body.text ?? '')?.[1];
    const unsubscribed = await api<{ data: { digest_frequency: string } }>('GET', link!);
    expect(unsubscribed.status).toBe(200);
    expect(unsubscribed.body.data.digest_frequency).toBe('never');
    const preferences = await api<{ data: { digest_frequency: string } }>(
      'GET',
      '/profile/notification-preferences',
      {
        as: member,
      },
    );
    expect(preferences.body.data.digest_frequency).toBe('never');
    await emit(member, actor, 'mention', 'Fay mentioned you');
    await runDigest(uniquePeriod());
    expect(await mailsTo(emailOf(member))).toHaveLength(2);
  });

  it('honours per-type e-mail preferences', async () => {
    const [member, actor] = await Promise.all([createTestUser(), createTestUser()]);
    await subscribe(member, {
      digest_frequency: 'daily',
      email_notifications: { new_comment: false, new_reaction: true },
    });
    await emit(member, actor, 'new_comment', 'A comment (not wanted)');
    await emit(member, actor, 'new_reaction', 'A reaction (wanted)');
    const mails = await runDigest(uniquePeriod(), { address: emailOf(member), count: 1 });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body.text).toContain('A reaction (wanted)');
    expect(mails[0]?.body.text).not.toContain('A comment');
  });

  it('two deliveries of one member message at the same moment send one e-mail', async () => {
    const [member, actor] = await Promise.all([createTestUser(), createTestUser()]);
    await subscribe(member, { digest_frequency: 'daily' });
    await emit(member, actor, 'mention', 'Gus mentioned you');
    const message = { frequency: 'daily' as const, period: uniquePeriod(), user_id: member.id };
    const outcomes = await Promise.allSettled([sendMemberDigest(message), sendMemberDigest(message)]);
    expect(
      outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value),
    ).toEqual(['sent']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')?.reason).toBeInstanceOf(DigestBusy);
    // The retried delivery finds the period done: a success that sends nothing, not a failure to retry forever.
    expect(await sendMemberDigest(message)).toBe('skipped');
    expect(await waitForMails(emailOf(member), 1)).toHaveLength(1);
  });

  it('refuses a forged unsubscribe token and changes nothing', async () => {
    const member = await createTestUser();
    await subscribe(member, { digest_frequency: 'weekly' });
    const forged = await api('GET', '/notifications/digest/unsubscribe', {
      query: { token: `${member.id}.${'A'.repeat(43)}` },
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { token: expect.any(String) } },
    });
    const preferences = await api<{ data: { digest_frequency: string } }>(
      'GET',
      '/profile/notification-preferences',
      {
        as: member,
      },
    );
    expect(preferences.body.data.digest_frequency).toBe('weekly');
  });

  it('names periods by UTC date and ISO week', () => {
    expect(digestPeriod('daily', new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-22');
    expect(digestPeriod('weekly', new Date('2026-11-22T12:00:00Z'))).toBe('2026-W47');
    expect(digestPeriod('weekly', new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53');
    expect(digestPeriod('weekly', new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
  });
});
