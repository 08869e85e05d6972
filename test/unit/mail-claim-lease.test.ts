import { describe, expect, it } from 'vitest';
import { QUEUES, visibilityTimeoutSeconds } from '../../shared/catalogue/index.ts';
import { MAIL_CLAIM_LEASE_MS } from '../../shared/domain/notifications/mail-delivery-repository.ts';

describe('mail claim lease', () => {
  const mail = QUEUES.find((queue) => queue.name === 'mail')!;

  it('outlives the mail worker, so a running sender never loses its claim', () => {
    expect(MAIL_CLAIM_LEASE_MS).toBeGreaterThan(mail.timeoutSeconds * 1000);
  });

  it("expires before the queue redelivers, so a crashed sender's message is sent by the redelivery", () => {
    expect(MAIL_CLAIM_LEASE_MS).toBeLessThan(visibilityTimeoutSeconds(mail) * 1000);
  });
});
