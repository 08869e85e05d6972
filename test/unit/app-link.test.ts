import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { appLink } from '../../shared/domain/app-link.ts';
import { composeDigest } from '../../shared/domain/notifications/compose-digest.ts';
import type { NotificationItem } from '../../shared/domain/notifications/notification-item.ts';

/** Links in e-mails go to the client app's pages named by APP_LINK_TEMPLATE, else to the API's origin. */
const saved = { ...process.env };
function withEnvironment(variables: Record<string, string>): void {
  Object.assign(process.env, { TABLE_NAME: 'table', ...variables });
  resetEnvCache();
}
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe('appLink', () => {
  it('puts the path into APP_LINK_TEMPLATE', () => {
    withEnvironment({
      APP_LINK_TEMPLATE: 'https://app.example/#{path}',
      PUBLIC_BASE_URL: 'https://api.example/v2',
    });
    expect(appLink('/feeds/2?comment_id=1')).toBe('https://app.example/#/feeds/2?comment_id=1');
  });

  it("uses the API's origin without a template", () => {
    withEnvironment({ APP_LINK_TEMPLATE: '', PUBLIC_BASE_URL: 'http://127.0.0.1:3000/v2' });
    expect(appLink('/u/bob')).toBe('http://127.0.0.1:3000/u/bob');
  });

  it('refuses a template without {path} when the environment is read', () => {
    withEnvironment({ APP_LINK_TEMPLATE: 'https://app.example/' });
    expect(() => appLink('/u/bob')).toThrow(/APP_LINK_TEMPLATE/);
  });

  it('is what the digest links each notification to', () => {
    withEnvironment({
      APP_LINK_TEMPLATE: 'https://app.example{path}',
      PUBLIC_BASE_URL: 'https://api.example/v2',
    });
    const item = { title: 'Ann commented', action_url: '/feeds/2?comment_id=1' } as NotificationItem;
    const mail = composeDigest({
      displayName: 'Bob',
      frequency: 'daily',
      items: [item],
      more: false,
      link: appLink,
      unsubscribeUrl: 'https://api.example/v2/notifications/digest/unsubscribe?token=t',
    });
    expect(mail.text).toContain('- Ann commented (https://app.example/feeds/2?comment_id=1)');
    expect(mail.html).toContain('<a href="https://app.example/feeds/2?comment_id=1">Ann commented</a>');
  });
});
