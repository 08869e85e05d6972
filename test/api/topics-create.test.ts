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
  uniqueToken,
} from '../support/topics.ts';

/** POST /admin/topics through the local gateway (contract "Topics", decisions.md "Topics and feeds"). */

let admin: TestUser;
let hostAdmin: TestUser;
let member: TestUser;
beforeAll(async () => {
  [admin, hostAdmin, member] = await Promise.all([
    createTestUser({ communityRole: 'admin' }),
    createTestUser({ hostRole: 'administrator' }),
    createTestUser(),
  ]);
});

describe('who may create', () => {
  it('anonymous → 401 rest_not_logged_in', async () => {
    const response = await api('POST', '/admin/topics', { body: { title: 'x' } });
    expectError(response, 401, 'rest_not_logged_in');
  });

  it('a member → 403 rest_forbidden, and nothing is written', async () => {
    const token = uniqueToken();
    expectError(await createTopic(member, { title: `Refused ${token}` }), 403, 'rest_forbidden');
    expect(await listAll(admin, { search: token })).toEqual([]);
  });

  it('a host administrator and a community admin may', async () => {
    const token = uniqueToken();
    expect((await createTopic(hostAdmin, { title: `Host ${token}` })).status).toBe(201);
    expect((await createTopic(admin, { title: `Community ${token}` })).status).toBe(201);
  });
});

describe('a created topic', () => {
  it('answers 201 with the full Topic and a message; defaults as decided', async () => {
    const token = uniqueToken();
    const before = await listTopics(admin, { per_page: 1 });
    const response = await createTopic(admin, { title: `  Fresh ${token}  ` });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        'color',
        'created_at',
        'description',
        'icon',
        'id',
        'message',
        'parent_id',
        'posts_count',
        'serial',
        'slug',
        'status',
        'title',
        'updated_at',
      ].sort(),
    );
    expect(body).toMatchObject({
      title: `Fresh ${token}`,
      slug: `fresh-${token}`,
      description: '',
      color: '',
      icon: '',
      parent_id: null,
      posts_count: 0,
      status: 'active',
      message: 'Topic has been created successfully.',
    });
    expect(Number.isInteger(body.id) && body.id > 0).toBe(true);
    expect(body.created_at).toMatch(SQL_DATE_TIME);
    expect(body.updated_at).toBe(body.created_at);
    expect(Math.abs(Date.parse(`${body.created_at.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
    // `serial` defaults to one more than the largest (other files create topics meanwhile: at least that).
    expect(before.status).toBe(200);
    expect(body.serial).toBeGreaterThan(0);
    const stored = await findTopic(admin, token, body.id);
    const { message: _message, ...topic } = body;
    expect(stored).toEqual(topic);
  });

  it('takes every optional field as sent', async () => {
    const token = uniqueToken();
    const parent = await createdTopic(admin, { title: `Parent ${token}` });
    const body = {
      title: `Child ${token}`,
      slug: `child-slug-${token}`,
      description: 'Everything about the child.',
      color: '#A1b2C3',
      icon: 'fa-solid fa-star',
      parent_id: parent.id,
      status: 'inactive',
      serial: 7,
    };
    const response = await createTopic(admin, body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ ...body, posts_count: 0 });
    expect(await findTopic(admin, token, response.body.id)).toMatchObject(body);
  });

  it('accepts #RGB colours, and parent_id 0 or null as top level', async () => {
    const token = uniqueToken();
    const short = await createdTopic(admin, { title: `Short ${token}`, color: '#fa0', parent_id: 0 });
    expect(short).toMatchObject({ color: '#fa0', parent_id: null });
    const none = await createdTopic(admin, { title: `None ${token}`, parent_id: null });
    expect(none.parent_id).toBeNull();
  });

  it('defaults serial to one more than the largest', async () => {
    const token = uniqueToken();
    const high = await createdTopic(admin, { title: `High ${token}`, serial: 900_000 });
    const next = await createdTopic(admin, { title: `Next ${token}` });
    expect(high.serial).toBe(900_000);
    expect(next.serial).toBeGreaterThan(900_000);
  });
});

describe('slugs', () => {
  it('generates the slug from the title, then -2, -3… when it is taken', async () => {
    const token = uniqueToken();
    const title = `Crème Brûlée ${token}`;
    const slugs: string[] = [];
    for (let i = 0; i < 4; i++) slugs.push((await createdTopic(admin, { title })).slug);
    const base = `creme-brulee-${token}`;
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`]);
  });

  it('skips a suffix someone took explicitly', async () => {
    const token = uniqueToken();
    await createdTopic(admin, { title: `Other ${token}`, slug: `taken-${token}-2` });
    const first = await createdTopic(admin, { title: `Taken ${token}` });
    const second = await createdTopic(admin, { title: `Taken ${token}` });
    expect(first.slug).toBe(`taken-${token}`);
    expect(second.slug).toBe(`taken-${token}-3`);
  });

  it('gives "topic" (and its suffixes) to a title without a letter or digit', async () => {
    const created = await createdTopic(admin, { title: '¡¿…?!' });
    expect(created.slug).toMatch(/^topic(-\d+)?$/);
  });

  it('normalises a slug sent', async () => {
    const token = uniqueToken();
    const created = await createdTopic(admin, {
      title: `Sent ${token}`,
      slug: `  My Slug Ünïque ${token}!!`,
    });
    expect(created.slug).toBe(`my-slug-unique-${token}`);
  });

  it('an explicit slug that is taken → 400 duplicate_slug, and nothing is written', async () => {
    const token = uniqueToken();
    await createdTopic(admin, { title: `First ${token}`, slug: `dup-${token}` });
    const response = await createTopic(admin, { title: `Second ${token}`, slug: `dup-${token}` });
    expectError(response, 400, 'duplicate_slug');
    // Also when the slug sent only normalises to the taken one.
    expectError(
      await createTopic(admin, { title: `Third ${token}`, slug: `DUP ${token}` }),
      400,
      'duplicate_slug',
    );
    expect((await listAll(admin, { search: token })).map((topic) => topic.title)).toEqual([`First ${token}`]);
  });

  it('a slug that normalises to nothing → 400 rest_invalid_param naming slug', async () => {
    const body = expectError(
      await createTopic(admin, { title: 'Bad slug', slug: '!!!' }),
      400,
      'rest_invalid_param',
    );
    expect(body.data.params).toHaveProperty('slug');
  });
});

describe('refused bodies change nothing', () => {
  let token: string;
  beforeAll(() => {
    token = uniqueToken();
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a colour name', { color: 'red' }, 'color'],
    ['a 4-digit colour', { color: '#abcd' }, 'color'],
    ['a colour without #', { color: 'abcdef' }, 'color'],
    ['a non-hex colour', { color: '#ggg' }, 'color'],
    ['a title over 192 characters', { title: 'x'.repeat(193) }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a slug over 100 characters', { slug: 'a'.repeat(101) }, 'slug'],
    ['an empty slug', { slug: '' }, 'slug'],
    ['a description over 5000 characters', { description: 'd'.repeat(5001) }, 'description'],
    ['an icon over 500 characters', { icon: 'i'.repeat(501) }, 'icon'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['a negative serial', { serial: -1 }, 'serial'],
    ['a fractional serial', { serial: 1.5 }, 'serial'],
    ['a serial as a string', { serial: '3' }, 'serial'],
    ['a serial too large', { serial: 1_000_000_000 }, 'serial'],
    ['a parent id as a string', { parent_id: '4' }, 'parent_id'],
    ['a negative parent id', { parent_id: -4 }, 'parent_id'],
    ['an unknown field', { featured: true }, 'featured'],
  ];

  it.each(invalid)('%s → 400 rest_invalid_param naming the field', async (_name, change, field) => {
    const response = await createTopic(admin, { title: `Invalid ${token}`, ...change });
    const body = expectError(response, 400, 'rest_invalid_param');
    expect(Object.keys(body.data.params as Record<string, string>)).toContain(field);
  });

  it('an unknown parent → 400 rest_invalid_param naming parent_id', async () => {
    const response = await createTopic(admin, { title: `Orphan ${token}`, parent_id: 987_654_321 });
    const body = expectError(response, 400, 'rest_invalid_param');
    expect(body.data.params).toEqual({ parent_id: 'no topic has this id' });
  });

  it('a missing title → 400 rest_missing_callback_param', async () => {
    const body = expectError(
      await createTopic(admin, { slug: `x-${token}` }),
      400,
      'rest_missing_callback_param',
    );
    expect(body.data.params).toEqual(['title']);
  });

  it('a body that is not JSON → 400 rest_invalid_json', async () => {
    const response = await api('POST', '/admin/topics', {
      as: admin,
      rawBody: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'rest_invalid_json');
  });

  it('none of them was written', async () => {
    expect(await listAll(admin, { search: token })).toEqual([]);
  });
});
