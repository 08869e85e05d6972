import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';
import { invitationGuardKey, spaceInvitations } from '../../shared/db/keys/invitations.ts';
import { getItem, queryItems } from '../../shared/db/reads.ts';
import { mailerClient } from '../../shared/integrations/mailer.ts';
import * as v from 'valibot';
import { createTestUser, type TestUser } from '../support/api.ts';
import { createSpace } from '../support/feeds.ts';
import { acceptanceLinkIn, mailsTo } from '../support/ses-inbox.ts';

/**
 * POST /invitations when SES fails. The SES emulator accepts every well-formed send, so the failure is injected
 * at the SDK boundary: a local gateway runs in this process, so the handler it loads shares this process's SES
 * client, and a middleware on that client throws for one recipient (the only mock the project allows).
 */
const FAULT = 'inject-ses-failure';
const anything = v.record(v.string(), v.unknown());

let gateway: Gateway;
let moderator: TestUser;
let spaceId: number;

beforeAll(async () => {
  gateway = await startGateway({ port: 0 });
  moderator = await createTestUser({ communityRole: 'moderator' });
  spaceId = await createSpace();
});
afterAll(() => gateway.close());
afterEach(() => {
  mailerClient().middlewareStack.remove(FAULT);
});

function failSendsTo(address: string): void {
  mailerClient().middlewareStack.add(
    (next) => async (args) => {
      const input = (args as { input: { Destination?: { ToAddresses?: string[] } } }).input;
      if (input.Destination?.ToAddresses?.includes(address)) {
        throw Object.assign(new Error('Injected SES failure'), { name: 'ServiceUnavailable' });
      }
      return next(args);
    },
    { step: 'initialize', name: FAULT },
  );
}

async function invite(email: string) {
  const response = await fetch(`${gateway.url}/invitations`, {
    method: 'POST',
    headers: { authorization: moderator.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ space_id: spaceId, email }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The space's stored invitations of one address (the space's invitation index, as the table design lists them). */
const storedInvitations = async (email: string) =>
  (await queryItems(spaceInvitations(spaceId), anything)).filter((item) => item.email === email).length;

describe('POST /invitations with SES failing', () => {
  it('answers 502 email_failed, stores nothing, and a retry then succeeds with one e-mail', async () => {
    const email = `failing_${randomBytes(5).toString('hex')}@example.com`;
    failSendsTo(email);
    const failed = await invite(email);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({
      code: 'email_failed',
      message: expect.any(String),
      data: { status: 502 },
    });
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await getItem(invitationGuardKey(spaceId, moderator.id, email), anything)).toBeUndefined();
    expect(await storedInvitations(email)).toBe(0);

    mailerClient().middlewareStack.remove(FAULT);
    const retried = await invite(email);
    expect(retried.status).toBe(201);
    expect(await storedInvitations(email)).toBe(1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(acceptanceLinkIn(mails[0])).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}\/accept$/);
  });

  it('fails only the invitation whose e-mail failed', async () => {
    const failing = `failing_${randomBytes(5).toString('hex')}@example.com`;
    const fine = `fine_${randomBytes(5).toString('hex')}@example.com`;
    failSendsTo(failing);
    const [bad, good] = await Promise.all([invite(failing), invite(fine)]);
    expect(bad.status).toBe(502);
    expect(good.status).toBe(201);
    expect(await mailsTo(fine)).toHaveLength(1);
    expect(await mailsTo(failing)).toHaveLength(0);
  });

  it('hands the claim to a waiting identical request when the first send fails', async () => {
    const email = `flaky_${randomBytes(5).toString('hex')}@example.com`;
    let sends = 0;
    // SES is slow (so the identical requests find the claim taken and wait) and fails the first send only.
    mailerClient().middlewareStack.add(
      (next) => async (args) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        sends += 1;
        if (sends === 1) throw Object.assign(new Error('Injected SES failure'), { name: 'Throttling' });
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const responses = await Promise.all(Array.from({ length: 4 }, () => invite(email)));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 502]);
    expect(sends).toBe(2);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await storedInvitations(email)).toBe(1);
  });
});
