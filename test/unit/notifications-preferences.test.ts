import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES } from '../../shared/contracts/notifications.ts';
import {
  DEFAULT_PREFERENCES,
  emailFlagFor,
  wantsEmail,
} from '../../shared/domain/notifications/notification-preferences.ts';

describe('notification e-mail rules', () => {
  it('maps every type to its flag: new_reply follows new_comment, flagless types are in-app only', () => {
    const flags = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, emailFlagFor(type)]));
    expect(flags).toEqual({
      new_comment: 'new_comment',
      new_reply: 'new_comment',
      new_reaction: 'new_reaction',
      new_follower: 'new_follower',
      mention: 'mention',
      space_invite: 'space_invite',
      space_join: undefined,
      course_enrollment: undefined,
      lesson_complete: undefined,
    });
  });

  it('with the defaults, e-mails everything flagged except new_reaction', () => {
    const wanted = NOTIFICATION_TYPES.filter((type) => wantsEmail(DEFAULT_PREFERENCES, type));
    expect(wanted).toEqual(['new_comment', 'new_reply', 'new_follower', 'mention', 'space_invite']);
  });

  it('follows an opt-out', () => {
    const optedOut = {
      ...DEFAULT_PREFERENCES,
      email_notifications: { ...DEFAULT_PREFERENCES.email_notifications, new_comment: false },
    };
    expect(wantsEmail(optedOut, 'new_comment')).toBe(false);
    expect(wantsEmail(optedOut, 'new_reply')).toBe(false);
    expect(wantsEmail(optedOut, 'mention')).toBe(true);
  });
});
