import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  createdTopic,
  createTopic,
  expectError,
  findTopic,
  listAll,
  listTopics,
  SQL_DATE_TIME,
  type Topic,
  uniqueToken,
  updateTopic,
} from '../support/topics.ts';

/** PUT /admin/topics/{topic_id} through the local gateway. */

let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  [admin, member] = await Promise.all([createTestUser({ hostRole: 'administrator' }), createTestUser()]);
});

const UPDATE_FIELDS = [
  'color',
  'description',
  'icon',
  'id',
  'message',
  'slug',
  'status',
  'title',
  'updated_at',
];

describe('who may update', () => {
  it('anonymous → 401, a member → 403 (also for an unknown id), nothing changes', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Guarded ${token}` });
    expectError(
      await api('PUT', `/admin/topics/${topic.id}`, { body: { title: 'x' } }),
      401,
      'rest_not_logged_in',
    );
    expectError(await updateTopic(member, topic.id, { title: 'Hijacked' }), 403, 'rest_forbidden');
    expectError(await updateTopic(member, 987_654_321, { title: 'Hijacked' }), 403, 'rest_forbidden');
    expect(await findTopic(admin, token, topic.id)).toEqual(topic);
  });
});

describe('a partial update', () => {
  it('changes only the fields sent; a new title keeps the slug; answers the updated fields', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, {
      title: `Original ${token}`,
      description: 'Kept.',
      color: '#123',
      icon: 'icon-kept',
      serial: 4,
    });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // so updated_at can differ at second precision
    const response = await updateTopic(admin, topic.id, { title: `Renamed ${token}` });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(UPDATE_FIELDS);
    expect(response.body).toEqual({
      id: topic.id,
      title: `Renamed ${token}`,
      slug: `original-${token}`,
      description: 'Kept.',
      color: '#123',
      icon: 'icon-kept',
      status: 'active',
      updated_at: expect.stringMatching(SQL_DATE_TIME),
      message: 'Topic has been updated successfully.',
    });
    expect(response.body.updated_at).not.toBe(topic.updated_at);
    const stored = await findTopic(admin, token, topic.id);
    expect(stored).toEqual({
      ...topic,
      title: `Renamed ${token}`,
      updated_at: response.body.updated_at,
    });
  });

  it('an empty body changes nothing but updated_at', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Still ${token}` });
    const response = await updateTopic(admin, topic.id, {});
    expect(response.status).toBe(200);
    const { updated_at: _u, ...rest } = (await findTopic(admin, token, topic.id)) as Topic;
    const { updated_at: _v, ...before } = topic;
    expect(rest).toEqual(before);
  });

  it('sets every field sent; colour can be cleared', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Every ${token}`, color: '#fff' });
    const change = {
      title: `Everything ${token}`,
      slug: `everything-${token}`,
      description: 'New words.',
      color: '',
      icon: 'https://example.com/icon.svg',
      status: 'inactive',
      serial: 12,
    };
    const response = await updateTopic(admin, topic.id, change);
    expect(response.status).toBe(200);
    expect(await findTopic(admin, token, topic.id)).toMatchObject(change);
  });
});

describe('slug changes', () => {
  it('move the slug guard: the new slug is held, the old one is free again', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Mover ${token}`, slug: `old-${token}` });
    const response = await updateTopic(admin, topic.id, { slug: `New ${token}` });
    expect(response.body).toMatchObject({ slug: `new-${token}` });
    expectError(
      await createTopic(admin, { title: `Copy ${token}`, slug: `new-${token}` }),
      400,
      'duplicate_slug',
    );
    expect((await createTopic(admin, { title: `Reuse ${token}`, slug: `old-${token}` })).status).toBe(201);
  });

  it("another topic's slug → 400 duplicate_slug, and nothing changes", async () => {
    const token = uniqueToken();
    await createdTopic(admin, { title: `Holder ${token}`, slug: `held-${token}` });
    const topic = await createdTopic(admin, { title: `Wanter ${token}` });
    const response = await updateTopic(admin, topic.id, { slug: `held-${token}`, title: 'Not applied' });
    expectError(response, 400, 'duplicate_slug');
    expect(await findTopic(admin, token, topic.id)).toEqual(topic);
  });

  it('its own slug is no conflict', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Own ${token}` });
    expect((await updateTopic(admin, topic.id, { slug: topic.slug })).status).toBe(200);
  });
});

describe('hierarchy', () => {
  it('refuses a cycle: the topic itself, a child, a deeper descendant', async () => {
    const token = uniqueToken();
    const a = await createdTopic(admin, { title: `A ${token}` });
    const b = await createdTopic(admin, { title: `B ${token}`, parent_id: a.id });
    const c = await createdTopic(admin, { title: `C ${token}`, parent_id: b.id });
    for (const parent of [a.id, b.id, c.id]) {
      const body = expectError(
        await updateTopic(admin, a.id, { parent_id: parent }),
        400,
        'rest_invalid_param',
      );
      expect(Object.keys(body.data.params as object)).toEqual(['parent_id']);
    }
    expectError(await updateTopic(admin, b.id, { parent_id: c.id }), 400, 'rest_invalid_param');
    expect((await findTopic(admin, token, a.id))?.parent_id).toBeNull();
    // Moving down the other way is fine: C under A, then B under C.
    expect((await updateTopic(admin, c.id, { parent_id: a.id })).status).toBe(200);
    expect((await updateTopic(admin, b.id, { parent_id: c.id })).status).toBe(200);
    const byId = new Map(
      (await listAll(admin, { search: token })).map((topic) => [topic.id, topic.parent_id]),
    );
    expect(byId).toEqual(
      new Map([
        [a.id, null],
        [c.id, a.id],
        [b.id, c.id],
      ]),
    );
  });

  it('refuses an unknown parent; 0 and null move to the top level', async () => {
    const token = uniqueToken();
    const parent = await createdTopic(admin, { title: `Top ${token}` });
    const topic = await createdTopic(admin, { title: `Leaf ${token}`, parent_id: parent.id });
    const body = expectError(
      await updateTopic(admin, topic.id, { parent_id: 987_654_321 }),
      400,
      'rest_invalid_param',
    );
    expect(body.data.params).toEqual({ parent_id: 'no topic has this id' });
    expect((await updateTopic(admin, topic.id, { parent_id: 0 })).status).toBe(200);
    expect((await findTopic(admin, token, topic.id))?.parent_id).toBeNull();
    expect((await updateTopic(admin, topic.id, { parent_id: parent.id })).status).toBe(200);
    expect((await updateTopic(admin, topic.id, { parent_id: null })).status).toBe(200);
    expect((await findTopic(admin, token, topic.id))?.parent_id).toBeNull();
  });
});

describe('status, parent and serial changes re-key the lists and move the totals', () => {
  it('status', async () => {
    const token = uniqueToken();
    const parent = await createdTopic(admin, { title: `Group ${token}` });
    const children = [];
    for (let i = 0; i < 3; i++)
      children.push(await createdTopic(admin, { title: `Kid ${i} ${token}`, parent_id: parent.id }));
    await updateTopic(admin, children[1]!.id, { status: 'inactive' });
    const inactive = await listTopics(admin, { parent_id: parent.id, status: 'inactive' });
    expect(inactive.body.topics.map((topic) => topic.id)).toEqual([children[1]!.id]);
    expect(inactive.body.pagination.total).toBe(1);
    const active = await listTopics(admin, { parent_id: parent.id, status: 'active' });
    expect(active.body.topics.map((topic) => topic.id)).toEqual([children[0]!.id, children[2]!.id]);
    expect(active.body.pagination.total).toBe(2);
    const all = await listTopics(admin, { parent_id: parent.id });
    expect(all.body.pagination.total).toBe(3);
    const statusList = await listAll(admin, { status: 'inactive', search: token });
    expect(statusList.map((topic) => topic.id)).toEqual([children[1]!.id]);
  });

  it('parent', async () => {
    const token = uniqueToken();
    const from = await createdTopic(admin, { title: `From ${token}` });
    const to = await createdTopic(admin, { title: `To ${token}` });
    const topic = await createdTopic(admin, {
      title: `Moved ${token}`,
      parent_id: from.id,
      status: 'inactive',
    });
    expect((await listTopics(admin, { parent_id: from.id })).body.pagination.total).toBe(1);
    await updateTopic(admin, topic.id, { parent_id: to.id });
    const fromList = await listTopics(admin, { parent_id: from.id });
    expect(fromList.body).toEqual({
      topics: [],
      pagination: { total: 0, per_page: 50, current_page: 1, total_pages: 1 },
    });
    const toList = await listTopics(admin, { parent_id: to.id, status: 'inactive' });
    expect(toList.body.topics.map((t) => t.id)).toEqual([topic.id]);
    expect(toList.body.pagination.total).toBe(1);
  });

  it('serial', async () => {
    const token = uniqueToken();
    const parent = await createdTopic(admin, { title: `Order ${token}` });
    const first = await createdTopic(admin, { title: `One ${token}`, parent_id: parent.id, serial: 1 });
    const second = await createdTopic(admin, { title: `Two ${token}`, parent_id: parent.id, serial: 2 });
    await updateTopic(admin, first.id, { serial: 3 });
    const list = await listTopics(admin, { parent_id: parent.id });
    expect(list.body.topics.map((topic) => [topic.id, topic.serial])).toEqual([
      [second.id, 2],
      [first.id, 3],
    ]);
  });
});

describe('refused requests', () => {
  it('an unknown id → 404 not_found', async () => {
    const body = expectError(await updateTopic(admin, 987_654_321, { title: 'Nobody' }), 404, 'not_found');
    expect(body.message).toBe('Topic not found.');
  });

  it('a non-integer id → 400 rest_invalid_param', async () => {
    expectError(await updateTopic(admin, 'abc', { title: 'x' }), 400, 'rest_invalid_param');
  });

  it.each([
    ['a bad colour', { color: 'blue' }],
    ['a long title', { title: 't'.repeat(193) }],
    ['a blank title', { title: '  ' }],
    ['an unknown status', { status: 'gone' }],
    ['an unknown field', { posts_count: 9 }],
    ['a bad serial', { serial: -2 }],
  ])('%s → 400 rest_invalid_param, nothing changes', async (_name, change) => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Stable ${token}` });
    expectError(await updateTopic(admin, topic.id, change), 400, 'rest_invalid_param');
    expect(await findTopic(admin, token, topic.id)).toEqual(topic);
  });
});
