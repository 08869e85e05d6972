import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { acceptanceLink, composeInvitationMail } from '../../shared/domain/invitations/invitation-mail.ts';
import type { SpaceItem } from '../../shared/domain/spaces/index.ts';
import type { UserItem } from '../../shared/domain/users/index.ts';

/**
 * Issue 21 item 8: the invitation e-mail's link comes from `INVITATION_LINK_TEMPLATE` (a client app's page, which
 * accepts with a POST), and only from it; without one it is the API's accept route. `APP_LINK_TEMPLATE` does not
 * change it.
 */
const saved = { ...process.env };
function withEnvironment(variables: Record<string, string>): void {
  Object.assign(process.env, {
    TABLE_NAME: 'table',
    PUBLIC_BASE_URL: 'https://api.example/v2',
    ...variables,
  });
  resetEnvCache();
}
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

const mail = () =>
  composeInvitationMail({
    to: 'ada@example.com',
    inviteeName: 'Ada',
    space: { title: 'Gardening' } as SpaceItem,
    inviter: { display_name: 'Bob' } as UserItem,
    token: 'tok_EN-123',
  });

describe('issue 21 item 8: the invitation link', () => {
  it('is INVITATION_LINK_TEMPLATE with the token in place of {token}, whatever APP_LINK_TEMPLATE says', () => {
    withEnvironment({
      INVITATION_LINK_TEMPLATE: 'https://app.example/invitations/{token}?from=mail',
      APP_LINK_TEMPLATE: 'https://other.example{path}',
    });
    expect(acceptanceLink('tok_EN-123')).toBe('https://app.example/invitations/tok_EN-123?from=mail');
    expect(mail().text).toContain('\nhttps://app.example/invitations/tok_EN-123?from=mail');
    expect(mail().text).not.toContain('/accept');
  });

  it("is the API's accept route without a template", () => {
    withEnvironment({ INVITATION_LINK_TEMPLATE: '', APP_LINK_TEMPLATE: 'https://other.example{path}' });
    expect(acceptanceLink('tok')).toBe('https://api.example/v2/invitations/tok/accept');
  });

  it('refuses a template without {token} when the environment is read', () => {
    withEnvironment({ INVITATION_LINK_TEMPLATE: 'https://app.example/invitations/' });
    expect(() => acceptanceLink('tok')).toThrow(/INVITATION_LINK_TEMPLATE/);
  });

  it('greets the invitee by the name as given, on the first line', () => {
    withEnvironment({});
    expect(mail().text.split('\n')[0]).toBe('Hello Ada,');
  });
});
