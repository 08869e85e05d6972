import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace } from '../support/feeds.ts';
import { follow, getProfile, type Json, profileList } from '../support/profiles.ts';

/**
 * A space summary and a member summary read the same in every response that carries them (issue 21 item 17): one
 * mapper each, one format per field. Members and spaces are shown in ISO 8601 `YYYY-MM-DDTHH:MM:SS` UTC (the
 * contract's format for profiles, whose space list is where spaces are listed), whatever the format of the
 * response around them (an invitation's own timestamps are `YYYY-MM-DD HH:MM:SS`).
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const SQL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

let inviter: TestUser;
let fan: TestUser;
let spaceId: number;
let invitation: Json;

beforeAll(async () => {
  [inviter, fan] = await Promise.all([createTestUser(), createTestUser()]);
  spaceId = await createSpace({ members: [[inviter, 'admin']] });
  const created = await api<{ invitation: Json }>('POST', '/invitations', {
    as: inviter,
    body: { space_id: String(spaceId), email: `invitee_${randomBytes(5).toString('hex')}@example.com` },
  });
  expect(created.status, created.text).toBe(201);
  invitation = created.body.invitation;
  const followed = await follow(inviter, fan.username);
  expect(followed.status, followed.text).toBe(200);
});

describe('summaries across responses (issue 21 item 17)', () => {
  it('shows a space with the same timestamps in an invitation and in the profile space list', async () => {
    const listed = await profileList<{ spaces: Json[] }>(inviter, inviter.username, 'spaces');
    expect(listed.status, listed.text).toBe(200);
    const inList = listed.body.spaces.find((space) => space.id === spaceId) as Json;
    const inInvitation = invitation.space as Json;
    for (const field of ['created_at', 'updated_at']) {
      expect(inList[field], field).toMatch(ISO);
      expect(inInvitation[field], field).toBe(inList[field]);
    }
    // The invitation's own timestamps keep their format.
    expect(invitation.created_at).toMatch(SQL);
  });

  it('shows a member with the same timestamps in the profile, an invitation and a follower list', async () => {
    const profile = (await getProfile(fan, inviter.username)).body.profile;
    const followers = await profileList<{ followers: { data: Json[] } }>(fan, fan.username, 'followers');
    expect(followers.status, followers.text).toBe(200);
    const asFollower = followers.body.followers.data.find((member) => member.user_id === inviter.id) as Json;
    const inInvitation = invitation.xprofile as Json;

    expect(profile.created_at).toMatch(ISO);
    expect(inInvitation.created_at).toBe(profile.created_at);
    expect(asFollower.created_at).toBe(profile.created_at);
    expect(inInvitation.last_activity).toMatch(ISO);
    expect(inInvitation.updated_at).toMatch(ISO);
    // The host user summary names the same instant in its own field and format (`user_registered`).
    expect((invitation.user as Json).user_registered).toBe(String(profile.created_at).replace('T', ' '));
  });
});
