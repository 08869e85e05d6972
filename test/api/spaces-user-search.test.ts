import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setMemberStatus } from '../../shared/domain/auth/index.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createCourseOwnAdmin } from '../support/course-admin.ts';
import { createSpace } from '../support/feeds.ts';
import { writeOldSearchEntries } from '../support/user-search-entries.ts';

/**
 * GET /spaces/users/search (contract "Space user search", decisions.md): host users who are not members of the
 * space, by case-insensitive prefix of display name, user name or e-mail, at most 100, e-mails only for community
 * moderators holding `list_users`, `can_add_member` required.
 */
type Candidate = { ID: number; display_name: string; photo: string; user_email: string | null };
type Search = {
  users: {
    current_page: number;
    data: Candidate[];
    from: number | null;
    to: number | null;
    last_page: number;
    per_page: number;
    total: number;
    next_page_url: string | null;
    prev_page_url: string | null;
    path: string;
  };
};

const tag = `us${randomBytes(4).toString('hex')}`;
const TAG = tag.toUpperCase();

let spaceId: number;
let member: TestUser;
let spaceModerator: TestUser;
let spaceAdmin: TestUser;
let courseAdmin: TestUser;
let globalModerator: TestUser;
let communityAdmin: TestUser;
let hostAdmin: TestUser;
/** Non-members matching only by display name, only by login, only by e-mail. */
let byName: TestUser;
let byLogin: TestUser;
let byEmail: TestUser;
/** Members whose every field matches the tag. */
let matchingMembers: TestUser[];
let bulkIds: number[];

const search = (as: TestUser | undefined, query: Record<string, string | number>) =>
  api<Search>('GET', '/spaces/users/search', { ...(as ? { as } : {}), query });

beforeAll(async () => {
  [member, spaceModerator, spaceAdmin, courseAdmin, globalModerator, communityAdmin, hostAdmin] =
    await Promise.all([
      createTestUser({ login: `${tag}_member`, displayName: `${TAG} Member` }),
      createTestUser({ login: `${tag}_moderator` }),
      createTestUser({ login: `${tag}_admin`, email: `${tag}_admin@example.com` }),
      createTestUser({ communityRole: 'course_admin' }),
      createTestUser({ communityRole: 'moderator' }),
      createTestUser({ communityRole: 'admin' }),
      createTestUser({ hostRole: 'administrator' }),
    ]);
  [byName, byLogin, byEmail] = await Promise.all([
    createTestUser({ login: `n_${tag}_x`, displayName: `${TAG}Name Person`, email: `n_${tag}@example.com` }),
    createTestUser({ login: `${tag}login_x`, displayName: 'Somebody Else', email: `l_${tag}@example.com` }),
    createTestUser({ login: `e_${tag}_x`, displayName: 'Another One', email: `${tag}mail@example.com` }),
  ]);
  matchingMembers = [member, spaceModerator, spaceAdmin];
  spaceId = await createSpace({
    members: [
      [member, 'member'],
      [spaceModerator, 'moderator'],
      [spaceAdmin, 'admin'],
    ],
  });
  const bulk = Array.from({ length: 105 }, (_, index) => ({
    ref: `b${index}`,
    login: `${tag}bulk_${String(index).padStart(3, '0')}`,
    email: `${tag}bulk_${index}@example.com`,
    display_name: `Bulk ${index}`,
  }));
  const imported = await runImport({ users: bulk });
  bulkIds = bulk.map((user) => imported.users[user.ref]!.id);
});

describe('GET /spaces/users/search', () => {
  it('matches a display-name prefix case-insensitively, in paginator B, e-mail hidden', async () => {
    const response = await search(spaceAdmin, { space_id: spaceId, search: `${TAG}name` });
    expect(response.status, response.text).toBe(200);
    expect(response.body.users.data).toEqual([
      { ID: byName.id, display_name: `${TAG}Name Person`, photo: '', user_email: null },
    ]);
    expect(response.body.users).toMatchObject({
      current_page: 1,
      from: 1,
      to: 1,
      last_page: 1,
      per_page: 100,
      total: 1,
      next_page_url: null,
      prev_page_url: null,
    });
    expect(response.body.users.path).toMatch(/\/v2\/spaces\/users\/search$/);
  });

  it('matches by user name and by e-mail prefix', async () => {
    const login = await search(spaceAdmin, { space_id: spaceId, search: `${TAG}LOGIN` });
    expect(login.body.users.data.map((user) => user.ID)).toEqual([byLogin.id]);
    const email = await search(spaceAdmin, { space_id: spaceId, search: `${tag}mail@` });
    expect(email.body.users.data.map((user) => user.ID)).toEqual([byEmail.id]);
    const inside = await search(spaceAdmin, { space_id: spaceId, search: 'name person' });
    expect(inside.body.users.data.map((user) => user.ID)).not.toContain(byName.id); // a prefix, not a substring
  });

  it('never returns members of the space', async () => {
    // `<tag>_` is the prefix of the three members' user names and of nobody else's.
    const response = await search(spaceAdmin, { space_id: spaceId, search: `${tag}_` });
    expect(response.status).toBe(200);
    expect(response.body.users.data).toEqual([]);
    expect(response.body.users).toMatchObject({ total: 0, from: null, to: null });
    // The same users are found in a space they do not belong to.
    const elsewhere = await createSpace();
    const other = await search(communityAdmin, { space_id: elsewhere, search: `${tag}_` });
    expect(other.body.users.data.map((user) => user.ID).sort()).toEqual(
      matchingMembers.map((user) => user.id).sort(),
    );
    // Mixed: the tag alone matches members and non-members; members are dropped, each user listed once.
    const mixed = await search(spaceAdmin, { space_id: spaceId, search: tag });
    const ids = mixed.body.users.data.map((user) => user.ID);
    for (const user of matchingMembers) expect(ids).not.toContain(user.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers at most 100 candidates', async () => {
    const response = await search(communityAdmin, { space_id: spaceId, search: `${tag}bulk` });
    expect(response.status).toBe(200);
    const ids = response.body.users.data.map((user) => user.ID);
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    expect(bulkIds).toEqual(expect.arrayContaining(ids));
    expect(response.body.users).toMatchObject({ total: 100, from: 1, to: 100, next_page_url: null });
  });

  it('issue 21 item 17: pages the candidates by page and per_page', async () => {
    const query = { space_id: spaceId, search: `${tag}bulk` };
    const all = (await search(communityAdmin, query)).body.users.data.map((user) => user.ID);
    const second = await search(communityAdmin, { ...query, page: 2, per_page: 30 });
    expect(second.status, second.text).toBe(200);
    expect(second.body.users.data.map((user) => user.ID)).toEqual(all.slice(30, 60));
    expect(second.body.users).toMatchObject({
      current_page: 2,
      per_page: 30,
      total: 100,
      from: 31,
      to: 60,
      last_page: 4,
    });
    expect(second.body.users.next_page_url).toContain('page=3');
    const last = await search(communityAdmin, { ...query, page: 4, per_page: 30 });
    expect(last.body.users.data.map((user) => user.ID)).toEqual(all.slice(90, 100));
    expect(last.body.users.next_page_url).toBeNull();
    expect((await search(communityAdmin, { ...query, per_page: 101 })).status).toBe(400);
  });

  it('issue 21 item 17: never lists suspended or banned accounts', async () => {
    const prefix = `${tag}inactive`;
    const [active, suspended, banned] = await Promise.all([
      createTestUser({ login: `${prefix}_a` }),
      createTestUser({ login: `${prefix}_s`, status: 'suspended' }),
      createTestUser({ login: `${prefix}_b`, status: 'banned' }),
    ]);
    const response = await search(communityAdmin, { space_id: spaceId, search: prefix });
    const ids = response.body.users.data.map((user) => user.ID);
    expect(ids).toEqual([active.id]);
    expect(ids).not.toContain(suspended.id);
    expect(ids).not.toContain(banned.id);
    expect(response.body.users.total).toBe(1);
  });

  it('follows the display name, photo and status of a candidate as they change', async () => {
    const prefix = `${tag}changing`;
    const person = await createTestUser({ login: `${prefix}_p`, displayName: `Before ${TAG}` });
    const found = async (term: string) => {
      const response = await search(communityAdmin, { space_id: spaceId, search: term });
      expect(response.status, response.text).toBe(200);
      return response.body.users.data.filter((candidate) => candidate.ID === person.id);
    };
    expect(await found(prefix)).toEqual([
      { ID: person.id, display_name: `Before ${TAG}`, photo: '', user_email: null },
    ]);

    const photo = 'https://example.com/after.png';
    const updated = await api('PUT', '/profile/me', {
      as: person,
      body: { display_name: `${TAG}after name`, avatar: photo },
    });
    expect(updated.status, updated.text).toBe(200);
    const renamed = { ID: person.id, display_name: `${TAG}after name`, photo, user_email: null };
    expect(await found(prefix)).toEqual([renamed]);
    expect(await found(`${tag}after`)).toEqual([renamed]);
    expect(await found('before')).toEqual([]);

    expect(await setMemberStatus(person.username, 'suspended')).toMatchObject({ status: 'suspended' });
    expect(await found(prefix)).toEqual([]);
    await setMemberStatus(person.username, 'active');
    expect(await found(prefix)).toEqual([renamed]);
  });

  it('finds a candidate whose entries an older stage wrote (no user carried) from the user item', async () => {
    const person = await createTestUser({ login: `${tag}older_p`, displayName: `${TAG} Older` });
    await writeOldSearchEntries(person.id);
    const response = await search(communityAdmin, { space_id: spaceId, search: `${tag}older` });
    expect(response.status, response.text).toBe(200);
    expect(response.body.users.data).toEqual([
      { ID: person.id, display_name: `${TAG} Older`, photo: '', user_email: null },
    ]);
    await setMemberStatus(person.username, 'suspended');
    expect(
      (await search(communityAdmin, { space_id: spaceId, search: `${tag}older` })).body.users.data,
    ).toEqual([]);
  });

  it('shows e-mails only to community moderators holding host list_users', async () => {
    const query = { space_id: spaceId, search: `${tag}mail` };
    const asHost = await search(hostAdmin, query);
    expect(asHost.body.users.data).toEqual([
      expect.objectContaining({ user_email: `${tag}mail@example.com` }),
    ]);
    for (const caller of [communityAdmin, spaceAdmin]) {
      const response = await search(caller, query);
      expect(response.body.users.data).toEqual([
        expect.objectContaining({ ID: byEmail.id, user_email: null }),
      ]);
    }
  });

  it('requires can_add_member: space admins and global admins only', async () => {
    for (const caller of [spaceAdmin, communityAdmin, hostAdmin]) {
      expect((await search(caller, { space_id: spaceId })).status, caller.username).toBe(200);
    }
    for (const caller of [
      member,
      spaceModerator,
      courseAdmin,
      globalModerator,
      await createCourseOwnAdmin(),
    ]) {
      const response = await search(caller, { space_id: spaceId });
      expect(response.status, caller.username).toBe(403);
      expect(response.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    }
    const anonymous = await search(undefined, { space_id: spaceId });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'rest_not_logged_in' });
  });

  it('needs an existing space_id', async () => {
    const missing = await search(communityAdmin, { search: tag });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { status: 400, params: ['space_id'] },
    });
    const malformed = await search(communityAdmin, { space_id: 'abc' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'rest_invalid_param' });
    const unknown = await search(communityAdmin, { space_id: 999_999_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', data: { status: 404 } });
    // A caller who may not add members learns nothing about which spaces exist.
    expect((await search(spaceAdmin, { space_id: 999_999_999 })).status).toBe(403);
  });
});
