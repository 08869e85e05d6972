import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSetting } from '../../shared/domain/settings/index.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError } from '../support/feeds.ts';
import { getProfile, type Json, profileList } from '../support/profiles.ts';

/**
 * `user_space_visibility` gates `GET /profile/{username}/spaces` (decisions.md): `admin_only` lets only the owner
 * and community moderators through (others 403 `permission_failed`), `logged_in` and `everybody` every caller.
 * Runs after every other file (it changes a site-wide setting) and restores the default.
 */

let member: TestUser;
let other: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  [member, other, moderator] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  await createSpace({ members: [[member, 'member']] });
});

afterAll(async () => {
  await putSetting('privacy', 'user_space_visibility', 'everybody');
});

describe('user_space_visibility', () => {
  it('admin_only: 403 permission_failed for other members; the owner and moderators pass', async () => {
    await putSetting('privacy', 'user_space_visibility', 'admin_only');
    const refused = await profileList(other, member.username, 'spaces');
    expectError(refused, 403, 'permission_failed');
    for (const caller of [member, moderator]) {
      const response = await profileList<{ spaces: Json[] }>(caller, member.username, 'spaces');
      expect(response.status, response.text).toBe(200);
      expect(response.body.spaces).toHaveLength(1);
    }
    expect((await getProfile(other, member.username)).body.profile.canViewUserSpaces).toBe(false);
    expect((await getProfile(moderator, member.username)).body.profile.canViewUserSpaces).toBe(true);
  });

  it('logged_in and everybody: every member passes', async () => {
    for (const value of ['logged_in', 'everybody']) {
      await putSetting('privacy', 'user_space_visibility', value);
      const response = await profileList<{ spaces: Json[] }>(other, member.username, 'spaces');
      expect(response.status, response.text).toBe(200);
      expect(response.body.spaces).toHaveLength(1);
      expect((await getProfile(other, member.username)).body.profile.canViewUserSpaces).toBe(true);
    }
  });
});
