import { type ListedNotification, waitForNotifications } from '../support/notifications.ts';
import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { db, tableName } from '../../shared/db/client.ts';
import { invitationKey, invitationTokenKey } from '../../shared/db/keys/invitations.ts';
import { getItem } from '../../shared/db/reads.ts';
import { hashInvitationToken } from '../../shared/domain/invitations/invitation-token.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { findMembership, findSpaceStats } from '../../shared/domain/spaces/index.ts';
import { api, apiUrl, createTestUser, type TestUser } from '../support/api.ts';
import { createCourseOwnAdmin } from '../support/course-admin.ts';
import { createSpace } from '../support/feeds.ts';
import { acceptanceLinkIn, mailsTo } from '../support/ses-inbox.ts';

/**
 * POST /invitations and POST /invitations/{token}/accept through the local gateway and the SES emulator
 * (contract "Invitations", decisions.md). The SES failure path is in invitations-email-failure.test.ts.
 */
type Invitation = {
  id: number;
  user_id: number;
  post_id: number;
  status: string;
  type: string;
  message: string;
  meta: { invitee_name: string };
  reactions_count: number;
  created_at: string;
  space: { id: number; settings: Record<string, unknown>; created_at: string };
  user: Record<string, unknown>;
  xprofile: Record<string, unknown>;
};
type Created = { invitation: Invitation; message: string };
type ErrorBody = { code: string; message: string; data: { status: number } };

const SQL_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const address = () => `invitee_${randomBytes(5).toString('hex')}@example.com`;
const emailOf = (user: TestUser) => `${user.username}@example.com`;

let spaceId: number;
let member: TestUser;
let spaceModerator: TestUser;
let spaceAdmin: TestUser;
let courseAdmin: TestUser;
let globalModerator: TestUser;
let communityAdmin: TestUser;
let hostAdmin: TestUser;

const invite = (as: TestUser | undefined, body: Record<string, unknown>) =>
  api<Created & ErrorBody>('POST', '/invitations', { ...(as ? { as } : {}), body });

const accept = (as: TestUser | undefined, link: string) =>
  api<{ message: string; space_id: number; status: string } & ErrorBody>('POST', link, as ? { as } : {});

/** The user's notifications of one type, once there are at least `atLeast` with `match` (stored asynchronously). */
const notificationsOf = async (
  user: TestUser,
  type: string,
  match: (item: ListedNotification) => boolean = () => true,
  atLeast = 0,
) =>
  (await waitForNotifications(user, (items) => items.filter(match).length >= atLeast, { type })).filter(
    match,
  );

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
  spaceId = await createSpace({
    privacy: 'private',
    members: [
      [member, 'member'],
      [spaceModerator, 'moderator'],
      [spaceAdmin, 'admin'],
    ],
  });
});

describe('POST /invitations', () => {
  it('answers 201 with the contract invitation and sends exactly one e-mail with an acceptance link', async () => {
    const email = address();
    const response = await invite(spaceAdmin, { space_id: String(spaceId), email, invitee_name: 'Ada' });
    expect(response.status, response.text).toBe(201);
    const { invitation, message } = response.body;
    expect(message).toBe('Invitation has been sent successfully');
    expect(invitation).toMatchObject({
      user_id: spaceAdmin.id,
      post_id: spaceId,
      status: 'pending',
      type: 'invitation',
      message: email,
      meta: { invitee_name: 'Ada' },
      reactions_count: 1,
      space: { id: spaceId },
      user: { ID: spaceAdmin.id, user_login: spaceAdmin.username, user_email: emailOf(spaceAdmin) },
      xprofile: { id: spaceAdmin.id, user_id: spaceAdmin.id, username: spaceAdmin.username, badge: null },
    });
    expect(invitation.created_at).toMatch(SQL_DATE);
    // The space is a summary: ISO like every space summary (summary-timestamps.test.ts).
    expect(invitation.space.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    // Full settings, the invitation-only keys included.
    for (const key of [
      'show_fetured_image',
      'default_comment_sort_by',
      'document_library',
      'show_paywalls',
    ]) {
      expect(invitation.space.settings, key).toHaveProperty(key);
    }
    expect(JSON.stringify(response.body)).not.toMatch(/\/accept/); // the token is only in the e-mail

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const link = acceptanceLinkIn(mails[0]);
    expect(link.startsWith(`${apiUrl()}/invitations/`)).toBe(true);

    // Only the token's hash is stored: it keys the lookup item; the token itself is in no stored item.
    const token = link.split('/').at(-2)!;
    const anything = v.record(v.string(), v.unknown());
    const lookup = await getItem(invitationTokenKey(hashInvitationToken(token)), anything);
    expect(lookup).toMatchObject({ invitation_id: invitation.id });
    expect(await getItem(invitationTokenKey(token), anything)).toBeUndefined();
    const stored = await getItem(invitationKey(invitation.id), anything);
    expect(stored).toMatchObject({ status: 'pending', email });
    expect(JSON.stringify([stored, lookup])).not.toContain(token);
  });

  it('is refused with 409 already_member for a member address, nothing sent', async () => {
    const response = await invite(spaceModerator, { space_id: spaceId, email: emailOf(member) });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'already_member', data: { status: 409 } });
    expect(await mailsTo(emailOf(member))).toHaveLength(0);
  });

  it('is refused with 409 already_invited when the caller invites the same address again', async () => {
    const email = address();
    expect((await invite(spaceAdmin, { space_id: spaceId, email })).status).toBe(201);
    const again = await invite(spaceAdmin, { space_id: spaceId, email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_invited', data: { status: 409 } });
    expect(await mailsTo(email)).toHaveLength(1);
    // Another inviter may invite the same address (the rule is per inviter).
    expect((await invite(spaceModerator, { space_id: spaceId, email })).status).toBe(201);
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it('stores one invitation and sends one e-mail for concurrent identical requests', async () => {
    const email = address();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => invite(communityAdmin, { space_id: spaceId, email })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(response.body.code).toBe('already_invited');
    }
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('notifies an existing account of the address in-app (space_invite), with the invitation as its only e-mail', async () => {
    const invitee = await createTestUser();
    expect((await invite(spaceAdmin, { space_id: spaceId, email: emailOf(invitee) })).status).toBe(201);
    const notifications = await notificationsOf(invitee, 'space_invite', () => true, 1);
    expect(notifications).toEqual([
      expect.objectContaining({ type: 'space_invite', actor_id: spaceAdmin.id, object_id: spaceId }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailsTo(emailOf(invitee))).toHaveLength(1);
  });

  it('permission matrix: community_moderator in the space', async () => {
    for (const caller of [spaceModerator, spaceAdmin, globalModerator, communityAdmin, hostAdmin]) {
      const response = await invite(caller, { space_id: spaceId, email: address() });
      expect(response.status, `${caller.username}: ${response.text}`).toBe(201);
    }
    for (const caller of [member, courseAdmin, await createCourseOwnAdmin()]) {
      const email = address();
      const response = await invite(caller, { space_id: spaceId, email });
      expect(response.status, caller.username).toBe(403);
      expect(response.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      expect(await mailsTo(email)).toHaveLength(0);
    }
    const anonymous = await invite(undefined, { space_id: spaceId, email: address() });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'rest_not_logged_in' });
  });

  it('validates the body and the space', async () => {
    const missing = await invite(communityAdmin, { email: address() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['space_id'] },
    });
    const badEmail = await invite(communityAdmin, { space_id: spaceId, email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({ code: 'rest_invalid_param' });
    const unknownField = await invite(communityAdmin, { space_id: spaceId, email: address(), role: 'admin' });
    expect(unknownField.status).toBe(400);
    const unknown = await invite(communityAdmin, { space_id: 999_999_999, email: address() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', data: { status: 404 } });
    // A caller who may not invite learns nothing about which spaces exist.
    expect((await invite(member, { space_id: 999_999_999, email: address() })).status).toBe(403);
  });

  it('issue 21 item 8: invitee_name is one line of at most 100 characters without web addresses', async () => {
    const refused = [
      'Ada\n\nYour account is locked. Confirm it at https://evil.example/login',
      'Ada\r\nBob',
      'Ada\u2028Bob',
      'Ada\u202Eevil',
      'Ada https://evil.example',
      'Ada www.evil',
      'Ada (see evil.example)',
      'ada@evil.co',
      'mailto:ada',
      'A'.repeat(101),
    ];
    for (const name of refused) {
      const email = address();
      const response = await invite(communityAdmin, { space_id: spaceId, email, invitee_name: name });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { invitee_name: expect.any(String) } },
      });
      expect(await mailsTo(email)).toHaveLength(0);
    }
    // Names as people write them pass, and go into the e-mail as written.
    for (const name of ['J. R. R. Tolkien', 'Dr. No', `  ${'Ü'.repeat(100)}  `]) {
      const email = address();
      const response = await invite(communityAdmin, { space_id: spaceId, email, invitee_name: name });
      expect(response.status, response.text).toBe(201);
      expect(response.body.invitation.meta.invitee_name).toBe(name.trim());
      const [mail] = await mailsTo(email);
      expect(mail?.body.text?.split('\n')[0]).toBe(`Hello ${name.trim()},`);
    }
  });
});

describe('POST /invitations/{token}/accept', () => {
  async function invitedLink(email: string): Promise<string> {
    expect((await invite(spaceModerator, { space_id: spaceId, email })).status).toBe(201);
    return acceptanceLinkIn((await mailsTo(email))[0]);
  }

  it('adds the membership, emits space_join to the admins and moderators, and works once', async () => {
    const email = address();
    const link = await invitedLink(email);
    const invitee = await createTestUser({ email });
    expect(await findMembership(spaceId, invitee.id)).toBeUndefined();

    const response = await accept(invitee, link);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ space_id: spaceId, status: 'accepted' });
    expect(await findMembership(spaceId, invitee.id)).toMatchObject({ role: 'member', status: 'active' });
    for (const staff of [spaceAdmin, spaceModerator]) {
      const joins = await notificationsOf(staff, 'space_join', (item) => item.actor_id === invitee.id, 1);
      expect(joins, staff.username).toHaveLength(1);
    }
    expect(await notificationsOf(member, 'space_join')).toEqual([]);

    const again = await accept(invitee, link);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'invitation_not_found', data: { status: 404 } });
    // The accepted address is now a member: a new invitation is refused.
    expect((await invite(spaceAdmin, { space_id: spaceId, email })).body.code).toBe('already_member');
  });

  it('refuses another account (403) and unknown tokens (404), changing nothing', async () => {
    const email = address();
    const link = await invitedLink(email);
    const stranger = await createTestUser();
    const foreign = await accept(stranger, link);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    expect(await findMembership(spaceId, stranger.id)).toBeUndefined();
    // Whatever their roles, no other account may accept it.
    for (const caller of [member, spaceModerator, spaceAdmin, courseAdmin, communityAdmin, hostAdmin]) {
      const refused = await accept(caller, link);
      expect(refused.status, caller.username).toBe(403);
      expect(refused.body.code).toBe('rest_forbidden');
    }

    const unknown = await accept(stranger, `/invitations/${randomBytes(32).toString('base64url')}/accept`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'invitation_not_found' });
    expect((await accept(stranger, '/invitations/not-a-token/accept')).status).toBe(404);
    expect((await accept(undefined, link)).status).toBe(401);

    // Nothing changed: the invited account can still accept.
    const invitee = await createTestUser({ email });
    expect((await accept(invitee, link)).status).toBe(200);
  });

  it('accepts a token stored before tokens named their space (read through the invitation), with space_join', async () => {
    const email = address();
    const link = await invitedLink(email);
    const tokenHash = hashInvitationToken(link.split('/').at(-2) as string);
    // The item as stored before issue 20: no space_id on it.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: invitationTokenKey(tokenHash),
        UpdateExpression: 'REMOVE space_id',
        ConditionExpression: 'attribute_exists(space_id)',
      }),
    );
    const invitee = await createTestUser({ email });
    const response = await accept(invitee, link);
    expect(response.status, response.text).toBe(200);
    expect(await findMembership(spaceId, invitee.id)).toMatchObject({ role: 'member', status: 'active' });
    const joins = await notificationsOf(spaceAdmin, 'space_join', (item) => item.actor_id === invitee.id, 1);
    expect(joins).toHaveLength(1);
  });

  it('lets two concurrent acceptances join once', async () => {
    const email = address();
    const link = await invitedLink(email);
    const invitee = await createTestUser({ email });
    const statuses = (await Promise.all([accept(invitee, link), accept(invitee, link)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 404]);
    const joins = await notificationsOf(spaceAdmin, 'space_join', (item) => item.actor_id === invitee.id, 1);
    expect(joins).toHaveLength(1);
  });

  it("enrols the invitee of a course as a student, invited by the course's admin", async () => {
    const admin = await createTestUser();
    const tag = randomBytes(4).toString('hex');
    const imported = await runImport({
      courses: [{ ref: 'c', title: `Course ${tag}`, slug: `course-${tag}`, admins: [admin.username] }],
    });
    const courseId = imported.courses.c!.id;
    const email = address();
    const created = await invite(admin, { space_id: courseId, email });
    expect(created.status, created.text).toBe(201);
    expect(created.body.invitation.space).toMatchObject({ id: courseId, type: 'course' });
    const invitee = await createTestUser({ email });
    const before = (await findSpaceStats(courseId)).students_count ?? 0;
    expect((await accept(invitee, acceptanceLinkIn((await mailsTo(email))[0]))).status).toBe(200);
    expect(await findMembership(courseId, invitee.id)).toMatchObject({ role: 'student', status: 'active' });
    expect((await findSpaceStats(courseId)).students_count).toBe(before + 1);
  });

  it('issue 21 item 12: accepting a course invitation notifies the new student with course_enrollment, from the inviter', async () => {
    const admin = await createTestUser();
    const tag = randomBytes(4).toString('hex');
    const imported = await runImport({
      courses: [{ ref: 'c', title: `Course ${tag}`, slug: `course-${tag}`, admins: [admin.username] }],
    });
    const courseId = imported.courses.c!.id;
    const email = address();
    expect((await invite(admin, { space_id: courseId, email })).status).toBe(201);
    const invitee = await createTestUser({ email });
    expect(await notificationsOf(invitee, 'course_enrollment')).toEqual([]);
    expect((await accept(invitee, acceptanceLinkIn((await mailsTo(email))[0]))).status).toBe(200);
    const enrolments = await notificationsOf(invitee, 'course_enrollment', () => true, 1);
    expect(enrolments).toEqual([
      expect.objectContaining({
        type: 'course_enrollment',
        actor_id: admin.id,
        object_id: courseId,
        xprofile: expect.objectContaining({ user_id: admin.id, username: admin.username }),
      }),
    ]);
    // A space that is not a course enrols nobody: no course_enrollment.
    const spaceEmail = address();
    expect((await invite(spaceAdmin, { space_id: spaceId, email: spaceEmail })).status).toBe(201);
    const joiner = await createTestUser({ email: spaceEmail });
    expect((await accept(joiner, acceptanceLinkIn((await mailsTo(spaceEmail))[0]))).status).toBe(200);
    expect(await notificationsOf(joiner, 'course_enrollment')).toEqual([]);
  });
});
