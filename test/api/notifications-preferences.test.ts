import { describe, expect, it } from 'vitest';
import { api, createTestUser } from '../support/api.ts';

/** GET and PUT /profile/notification-preferences through the local gateway. */

const DEFAULTS = {
  email_notifications: {
    new_comment: true,
    new_reaction: false,
    new_follower: true,
    mention: true,
    space_invite: true,
  },
  push_notifications: { new_comment: true, new_reaction: true, mention: true },
  digest_frequency: 'never',
};

describe('notification preferences', () => {
  it('answers the defaults for a user who never set any', async () => {
    const user = await createTestUser();
    const response = await api('GET', '/profile/notification-preferences', { as: user });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: DEFAULTS });
  });

  it('merges the keys given and answers the full preferences in force', async () => {
    const user = await createTestUser();
    const first = await api('PUT', '/profile/notification-preferences', {
      as: user,
      body: { email_notifications: { new_reaction: true } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: 'Notification preferences updated successfully.',
      data: { ...DEFAULTS, email_notifications: { ...DEFAULTS.email_notifications, new_reaction: true } },
    });
    const second = await api('PUT', '/profile/notification-preferences', {
      as: user,
      body: { push_notifications: { mention: false }, digest_frequency: 'weekly' },
    });
    const expected = {
      email_notifications: { ...DEFAULTS.email_notifications, new_reaction: true },
      push_notifications: { ...DEFAULTS.push_notifications, mention: false },
      digest_frequency: 'weekly',
    };
    expect(second.body).toMatchObject({ data: expected });
    const read = await api('GET', '/profile/notification-preferences', { as: user });
    expect(read.body).toEqual({ data: expected });
  });

  it.each([
    [{ email_notifications: { unknown_flag: true } }, 'email_notifications.unknown_flag'],
    [{ push_notifications: { new_follower: true } }, 'push_notifications.new_follower'],
    [{ sms_notifications: {} }, 'sms_notifications'],
    [{ digest_frequency: 'hourly' }, 'digest_frequency'],
    [{ email_notifications: { mention: 'yes' } }, 'email_notifications.mention'],
  ])('rejects %o with 400 rest_invalid_param naming %s', async (body, param) => {
    const user = await createTestUser();
    const response = await api<{ code: string; data: { params: Record<string, string> } }>(
      'PUT',
      '/profile/notification-preferences',
      { as: user, body },
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('rest_invalid_param');
    expect(Object.keys(response.body.data.params)).toEqual([param]);
    const unchanged = await api('GET', '/profile/notification-preferences', { as: user });
    expect(unchanged.body).toEqual({ data: DEFAULTS });
  });

  it('rejects a body that is not JSON with 400 rest_invalid_json', async () => {
    const user = await createTestUser();
    const response = await api('PUT', '/profile/notification-preferences', {
      as: user,
      rawBody: '{"digest_frequency":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'rest_invalid_json' });
  });
});
