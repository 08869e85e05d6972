import { describe, expect, it } from 'vitest';
import { resolveOperatorSetting } from '../../shared/domain/settings/operator-setting.ts';

describe('resolveOperatorSetting', () => {
  it('addresses the general group by default and the privacy group by prefix', () => {
    expect(resolveOperatorSetting('disable_global_posts', 'yes')).toEqual({
      group: 'general',
      name: 'disable_global_posts',
      value: 'yes',
    });
    expect(resolveOperatorSetting('privacy.user_space_visibility', 'logged_in')).toEqual({
      group: 'privacy',
      name: 'user_space_visibility',
      value: 'logged_in',
    });
  });

  it('issue 21 item 14: addresses the features group by prefix (content_moderation yes/no only)', () => {
    expect(resolveOperatorSetting('features.content_moderation', 'yes')).toEqual({
      group: 'features',
      name: 'content_moderation',
      value: 'yes',
    });
    expect(() => resolveOperatorSetting('features.content_moderation', 'on')).toThrow(/Invalid value/);
    expect(() => resolveOperatorSetting('content_moderation', 'yes')).toThrow(/features\.content_moderation/);
  });

  it('types the value by the key: strings stay strings, JSON where the key needs it', () => {
    expect(resolveOperatorSetting('site_title', '123').value).toBe('123');
    expect(resolveOperatorSetting('site_title', 'My site').value).toBe('My site');
    expect(resolveOperatorSetting('is_slug_defined', 'true').value).toBe(true);
    expect(resolveOperatorSetting('access', '{"acess_level":"members"}').value).toEqual({
      acess_level: 'members',
    });
  });

  it('sets one field of an object setting by its dotted name', () => {
    expect(resolveOperatorSetting('access.acess_level', 'logged_in')).toEqual({
      group: 'general',
      name: 'access',
      value: { acess_level: 'logged_in' },
    });
    expect(() => resolveOperatorSetting('access.nope', 'x')).toThrow(/has no field "nope"/);
  });

  it('refuses unknown keys and invalid values', () => {
    expect(() => resolveOperatorSetting('nope', 'x')).toThrow(/Unknown setting "nope"/);
    expect(() => resolveOperatorSetting('constructor', 'x')).toThrow(/Unknown setting/);
    expect(() => resolveOperatorSetting('disable_global_posts', 'maybe')).toThrow(/Invalid value/);
    expect(() => resolveOperatorSetting('privacy.user_space_visibility', 'nobody')).toThrow(/Invalid value/);
    expect(() => resolveOperatorSetting('is_slug_defined', 'yes')).toThrow(/Invalid value/);
  });
});
