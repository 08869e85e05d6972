import { waitForNotificationCount } from '../support/notifications.ts';
import { describe, expect, inject, it } from 'vitest';
import { emitNotification } from '../../shared/domain/notifications/emit-notification.ts';
import type { NotificationType } from '../../shared/domain/notifications/notification-item.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';

/**
 * E-mail of notifications: emitted from the test process (the functions' environment is in process.env), queued on
 * the `mail` queue, delivered by the poller to the send-mail worker, and read back from the SES emulator's store.
 */

type StoredMail = { subject: string; destination: { to: string[] } };

async function mailsTo(address: string): Promise<StoredMail[]> {
  const response = await fetch(`${inject('sesUrl')}/store`);
  const store = (await response.json()) as { emails: StoredMail[] };
  return store.emails.filter((email) => email.destination.to.includes(address));
}

async function waitForMails(address: string, count: number, timeoutMs = 15_000): Promise<StoredMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const emit = (recipient: TestUser, actor: TestUser, type: NotificationType) =>
  emitNotification({
    recipientId: recipient.id,
    type,
    actorId: actor.id,
    title: `New ${type} for you`,
    message: 'Open the community to see it.',
    actionUrl: '/feeds/1',
    objectId: 1,
    objectType: 'feed',
  });

const emailOf = (user: TestUser) => `${user.username}@example.com`;

describe('notification e-mail', () => {
  it('a recipient who wants e-mail for the type gets exactly one message', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    // new_reply follows the new_comment flag, which is on by default.
    await emit(recipient, actor, 'new_reply');
    const mails = await waitForMails(emailOf(recipient), 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('New new_reply for you');
    // A bounded wait shows no second copy arrives (the worker is idempotent per notification).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailsTo(emailOf(recipient))).toHaveLength(1);
  });

  it('a recipient who opted out, or a type without an e-mail flag, gets none', async () => {
    const [recipient, actor, control] = await Promise.all([
      createTestUser(),
      createTestUser(),
      createTestUser(),
    ]);
    const optOut = await api('PUT', '/profile/notification-preferences', {
      as: recipient,
      body: { email_notifications: { mention: false } },
    });
    expect(optOut.status).toBe(200);
    await emit(recipient, actor, 'mention');
    await emit(recipient, actor, 'new_reaction'); // off by default
    await emit(recipient, actor, 'space_join'); // in-app only
    // A control message emitted after them: once it has arrived, the queue has been worked past the others.
    await emit(control, actor, 'mention');
    expect(await waitForMails(emailOf(control), 1)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailsTo(emailOf(recipient))).toHaveLength(0);
    // Stored all the same (preferences govern e-mail only).
    expect(await waitForNotificationCount(recipient, 3)).toHaveLength(3);
  });

  it('never notifies (or mails) the actor', async () => {
    const actor = await createTestUser();
    expect(await emit(actor, actor, 'new_comment')).toBeUndefined();
    const listed = await api<{ notifications: { total: number } }>('GET', '/notifications', { as: actor });
    expect(listed.body.notifications.total).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailsTo(emailOf(actor))).toHaveLength(0);
  });
});
