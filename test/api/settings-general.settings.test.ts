import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsSetCommand } from '../../functions/cli/commands/settings-set.ts';
import { parseArgs } from '../../functions/cli/parse-args.ts';
import { GENERAL_SETTINGS_DEFAULTS, putSetting } from '../../shared/domain/settings/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';
import { createCourseOwnAdmin } from '../support/course-admin.ts';
import { createSpace } from '../support/feeds.ts';

/**
 * GET /admin/general (contract "General settings") and the operator's `settings:set` of every general key. It
 * changes site-wide settings, so it runs in the `api-settings` project and puts every default back afterwards.
 */
type General = {
  settings: Record<string, unknown>;
  user_registration_enable_url: string;
  user_roles: Record<string, string>;
  users_can_register: boolean;
};

const SETTINGS_KEYS = [
  'access',
  'auth_content',
  'auth_form_type',
  'auth_redirect',
  'auth_url',
  'custom_signup_url',
  'cutsom_auth_url',
  'disable_global_posts',
  'explicit_registration',
  'featured_image',
  'is_slug_defined',
  'logo',
  'logo_permalink',
  'logo_permalink_type',
  'notice_html',
  'restricted_role_content',
  'site_title',
  'slug',
  'use_custom_signup_page',
  'white_logo',
];

/** One value per general key, each different from its default, as an operator types it. */
const OPERATOR_VALUES: Record<string, [string, unknown]> = {
  access: ['{"acess_level":"logged_in"}', { acess_level: 'logged_in' }],
  auth_content: ['Please sign in', 'Please sign in'],
  auth_form_type: ['custom', 'custom'],
  auth_redirect: ['https://example.com/after', 'https://example.com/after'],
  auth_url: ['https://example.com/login', 'https://example.com/login'],
  custom_signup_url: ['https://example.com/signup', 'https://example.com/signup'],
  cutsom_auth_url: ['https://example.com/custom-login', 'https://example.com/custom-login'],
  disable_global_posts: ['yes', 'yes'],
  explicit_registration: ['yes', 'yes'],
  featured_image: ['https://example.com/featured.png', 'https://example.com/featured.png'],
  is_slug_defined: ['true', true],
  logo: ['https://example.com/logo.png', 'https://example.com/logo.png'],
  logo_permalink: ['https://example.com', 'https://example.com'],
  logo_permalink_type: ['custom', 'custom'],
  notice_html: ['<p>Notice</p>', '<p>Notice</p>'],
  restricted_role_content: ['Members only', 'Members only'],
  site_title: ['12345', '12345'],
  slug: ['community-hub', 'community-hub'],
  use_custom_signup_page: ['yes', 'yes'],
  white_logo: ['https://example.com/white.png', 'https://example.com/white.png'],
  users_can_register: ['true', true],
  user_registration_enable_url: ['https://example.com/options', 'https://example.com/options'],
};

let member: TestUser;
let spaceModerator: TestUser;
let spaceAdmin: TestUser;
let courseAdmin: TestUser;
let globalModerator: TestUser;
let communityAdmin: TestUser;
let hostAdmin: TestUser;

async function restoreDefaults(): Promise<void> {
  for (const [key, value] of Object.entries(GENERAL_SETTINGS_DEFAULTS))
    await putSetting('general', key, value);
}

beforeAll(async () => {
  [member, spaceModerator, spaceAdmin, courseAdmin, globalModerator, communityAdmin, hostAdmin] =
    await Promise.all([
      createTestUser(),
      createTestUser(),
      createTestUser(),
      createTestUser({ communityRole: 'course_admin' }),
      createTestUser({ communityRole: 'moderator' }),
      createTestUser({ communityRole: 'admin' }),
      createTestUser({ hostRole: 'administrator' }),
    ]);
  await createSpace({
    members: [
      [member, 'member'],
      [spaceModerator, 'moderator'],
      [spaceAdmin, 'admin'],
    ],
  });
  await restoreDefaults();
});
afterAll(restoreDefaults);

describe('GET /admin/general', () => {
  it('answers every key with the contract spellings and defaults', async () => {
    const response = await api<General>('GET', '/admin/general', { as: communityAdmin });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      'settings',
      'user_registration_enable_url',
      'user_roles',
      'users_can_register',
    ]);
    expect(Object.keys(response.body.settings).sort()).toEqual(SETTINGS_KEYS);
    expect(response.body.settings.access).toEqual({ acess_level: 'public' });
    expect(response.body.settings).toHaveProperty('cutsom_auth_url', '');
    expect(response.body.settings).toMatchObject({
      disable_global_posts: 'no',
      slug: 'portal',
      is_slug_defined: false,
      use_custom_signup_page: 'no',
    });
    expect(response.body.users_can_register).toBe(false);
    expect(response.body.user_registration_enable_url).toBe('');
    // The administrator role is left out: administrators always have access.
    expect(response.body.user_roles).toEqual({ member: 'Member' });
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('is for community admins and host super admins only', async () => {
    for (const caller of [communityAdmin, hostAdmin]) {
      expect((await api('GET', '/admin/general', { as: caller })).status).toBe(200);
    }
    for (const caller of [
      member,
      spaceModerator,
      spaceAdmin,
      courseAdmin,
      globalModerator,
      await createCourseOwnAdmin(),
    ]) {
      const response = await api('GET', '/admin/general', { as: caller });
      expect(response.status, caller.username).toBe(403);
      expect(response.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    }
    const anonymous = await api('GET', '/admin/general');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'rest_not_logged_in', data: { status: 401 } });
  });
});

describe('settings:set of every general key', () => {
  it('sets each key, typed by the key, and GET /admin/general answers it', async () => {
    for (const [key, [typed, expected]] of Object.entries(OPERATOR_VALUES)) {
      const printed = await settingsSetCommand(parseArgs([key, typed]));
      expect(printed, key).toEqual({ key, value: expected });
    }
    const { body } = await api<General>('GET', '/admin/general', { as: hostAdmin });
    for (const [key, [, expected]] of Object.entries(OPERATOR_VALUES)) {
      const answered =
        key === 'users_can_register' || key === 'user_registration_enable_url'
          ? body[key]
          : body.settings[key];
      expect(answered, key).toEqual(expected);
    }
  });

  it('sets the nested access level through the command line as operators run it', async () => {
    expect(cliJson(await cli('settings:set', 'access.acess_level', 'role_based'))).toEqual({
      key: 'access.acess_level',
      value: { acess_level: 'role_based' },
    });
    const { body } = await api<General>('GET', '/admin/general', { as: communityAdmin });
    expect(body.settings.access).toEqual({ acess_level: 'role_based' });
    const refused = await cli('settings:set', 'access.no_such_field', 'x');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
  });
});
