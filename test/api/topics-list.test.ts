import { beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  createdTopic,
  expectError,
  inDisplayOrder,
  listAll,
  listTopics,
  type Topic,
  uniqueToken,
} from '../support/topics.ts';

/** GET /admin/topics through the local gateway: filters, order, pagination block A. */

let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  [admin, member] = await Promise.all([createTestUser({ communityRole: 'admin' }), createTestUser()]);
});

describe('who may list', () => {
  it('anonymous → 401, a member → 403', async () => {
    expectError(await api('GET', '/admin/topics'), 401, 'rest_not_logged_in');
    expectError(await listTopics(member), 403, 'rest_forbidden');
  });
});

describe('order and pagination', () => {
  let token: string;
  let parent: Topic;
  let children: Topic[];
  beforeAll(async () => {
    token = uniqueToken();
    parent = await createdTopic(admin, { title: `Shelf ${token}` });
    children = [];
    // Serials out of creation order, with ties (broken by id).
    for (const [i, serial] of [5, 1, 3, 1, 2].entries()) {
      children.push(await createdTopic(admin, { title: `Book ${i} ${token}`, parent_id: parent.id, serial }));
    }
  });

  it('orders by serial, then id; the default page size is 50', async () => {
    const response = await listTopics(admin, { parent_id: parent.id });
    expect(response.status).toBe(200);
    expect(response.body.topics.map((topic) => topic.id)).toEqual(inDisplayOrder(children));
    expect(response.body.pagination).toEqual({ total: 5, per_page: 50, current_page: 1, total_pages: 1 });
    expect(response.body.topics).toEqual(
      expect.arrayContaining(children.map((child) => expect.objectContaining(child))),
    );
  });

  it('pages by page and per_page; a page past the end is empty with the same total', async () => {
    const order = inDisplayOrder(children);
    const pages = [];
    for (const page of [1, 2, 3, 4, 40]) {
      const response = await listTopics(admin, { parent_id: parent.id, per_page: 2, page });
      expect(response.status).toBe(200);
      expect(response.body.pagination).toEqual({ total: 5, per_page: 2, current_page: page, total_pages: 3 });
      pages.push(response.body.topics.map((topic) => topic.id));
    }
    expect(pages).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4), [], []]);
  });

  it('the whole list is in display order too', async () => {
    const response = await listTopics(admin, { per_page: 100 });
    const topics = response.body.topics;
    expect(topics.length).toBeGreaterThan(0);
    expect(topics.map((topic) => topic.id)).toEqual(inDisplayOrder(topics));
    const { total, per_page: perPage, total_pages: totalPages } = response.body.pagination;
    expect(total).toBeGreaterThanOrEqual(topics.length);
    expect(perPage).toBe(100);
    expect(totalPages).toBe(Math.max(1, Math.ceil(total / 100)));
  });

  it.each([
    ['per_page', '0'],
    ['per_page', '101'],
    ['per_page', 'ten'],
    ['page', '0'],
    ['page', '-1'],
    ['status', 'deleted'],
    ['parent_id', '-1'],
    ['parent_id', 'x'],
    ['search', 's'.repeat(193)],
  ])('%s=%s → 400 rest_invalid_param', async (name, value) => {
    const body = expectError(await listTopics(admin, { [name]: value }), 400, 'rest_invalid_param');
    expect(body.data.params).toHaveProperty(name);
  });

  it('per_page 100 is allowed; unknown query parameters are ignored', async () => {
    const response = await listTopics(admin, { parent_id: parent.id, per_page: 100, colour: 'red' });
    expect(response.status).toBe(200);
    expect(response.body.pagination.per_page).toBe(100);
  });
});

describe('more than one default page (topics from the operator import)', () => {
  it('answers 50, then the rest, with exact totals', async () => {
    const token = uniqueToken();
    const topics = [
      { ref: 'shelf', title: `Big shelf ${token}`, slug: `big-shelf-${token}` },
      ...Array.from({ length: 55 }, (_, i) => ({
        ref: `t${i}`,
        title: `Item ${i} ${token}`,
        slug: `item-${i}-${token}`,
        parent: 'shelf',
        serial: 100 - i,
        ...(i % 5 === 0 ? { status: 'inactive' as const } : {}),
      })),
    ];
    const ids = await runImport({ topics });
    const shelf = ids.topics.shelf!;
    const first = await listTopics(admin, { parent_id: shelf });
    expect(first.body.topics).toHaveLength(50);
    expect(first.body.pagination).toEqual({ total: 55, per_page: 50, current_page: 1, total_pages: 2 });
    const second = await listTopics(admin, { parent_id: shelf, page: 2 });
    expect(second.body.topics).toHaveLength(5);
    const all = [...first.body.topics, ...second.body.topics];
    expect(all.map((topic) => topic.serial)).toEqual(Array.from({ length: 55 }, (_, i) => 46 + i));
    const inactive = await listTopics(admin, { parent_id: shelf, status: 'inactive', per_page: 5 });
    expect(inactive.body.pagination).toEqual({ total: 11, per_page: 5, current_page: 1, total_pages: 3 });
    expect(inactive.body.topics.every((topic) => topic.status === 'inactive')).toBe(true);
    const inactivePage3 = await listTopics(admin, {
      parent_id: shelf,
      status: 'inactive',
      per_page: 5,
      page: 3,
    });
    expect(inactivePage3.body.topics).toHaveLength(1);
  });
});

describe('filters', () => {
  let token: string;
  let topics: Record<string, Topic>;
  beforeAll(async () => {
    token = uniqueToken();
    const upper = token.toUpperCase();
    const root = await createdTopic(admin, { title: `Root ${token}`, serial: 1 });
    topics = { root };
    topics.alpha = await createdTopic(admin, {
      title: `Alpha ${upper} apples`,
      parent_id: root.id,
      serial: 3,
    });
    topics.beta = await createdTopic(admin, {
      title: `beta ${token} bananas`,
      parent_id: root.id,
      status: 'inactive',
      serial: 2,
    });
    topics.gamma = await createdTopic(admin, {
      title: `Gamma ${token} Apples`,
      serial: 2,
      status: 'inactive',
    });
  });

  const ids = (list: Topic[]) => list.map((topic) => topic.id);

  it('search is a case-insensitive substring of the title', async () => {
    expect(ids(await listAll(admin, { search: token }))).toEqual(inDisplayOrder(Object.values(topics)));
    expect(ids(await listAll(admin, { search: token.toUpperCase() }))).toHaveLength(4);
    // A substring in the middle of a word, across a space, in any case.
    const response = await listTopics(admin, { search: `${token.slice(3).toUpperCase()} aPPles` });
    expect(ids(response.body.topics)).toEqual([topics.gamma!.id, topics.alpha!.id]);
    expect(response.body.pagination).toEqual({ total: 2, per_page: 50, current_page: 1, total_pages: 1 });
  });

  it('search matches titles only, never slugs or descriptions', async () => {
    const other = uniqueToken();
    await createdTopic(admin, { title: 'Plain title', slug: `slug-${other}`, description: `About ${other}` });
    expect(await listAll(admin, { search: other })).toEqual([]);
  });

  it('an empty search is no filter', async () => {
    const response = await listTopics(admin, { search: '', parent_id: topics.root!.id });
    expect(response.body.pagination.total).toBe(2);
  });

  it('search pages with an exact total', async () => {
    const page2 = await listTopics(admin, { search: token, per_page: 3, page: 2 });
    expect(ids(page2.body.topics)).toEqual(inDisplayOrder(Object.values(topics)).slice(3));
    expect(page2.body.pagination).toEqual({ total: 4, per_page: 3, current_page: 2, total_pages: 2 });
    const past = await listTopics(admin, { search: token, per_page: 3, page: 3 });
    expect(past.body.topics).toEqual([]);
    expect(past.body.pagination.total).toBe(4);
  });

  it('status', async () => {
    expect(ids(await listAll(admin, { search: token, status: 'inactive' }))).toEqual(
      inDisplayOrder([topics.gamma!, topics.beta!]),
    );
    expect(ids(await listAll(admin, { search: token, status: 'active' }))).toEqual(
      ids([topics.root!, topics.alpha!]),
    );
    const page = await listTopics(admin, { status: 'inactive', per_page: 100 });
    expect(page.body.topics.every((topic) => topic.status === 'inactive')).toBe(true);
    expect(page.body.pagination.total).toBeGreaterThanOrEqual(2);
  });

  it('parent_id (0: top level)', async () => {
    const children = await listTopics(admin, { parent_id: topics.root!.id });
    expect(ids(children.body.topics)).toEqual([topics.beta!.id, topics.alpha!.id]);
    expect(children.body.pagination.total).toBe(2);
    expect(ids(await listAll(admin, { parent_id: 0, search: token }))).toEqual(
      ids([topics.root!, topics.gamma!]),
    );
    const unknown = await listTopics(admin, { parent_id: 987_654_321 });
    expect(unknown.body).toEqual({
      topics: [],
      pagination: { total: 0, per_page: 50, current_page: 1, total_pages: 1 },
    });
  });

  it('all three together', async () => {
    const response = await listTopics(admin, {
      parent_id: topics.root!.id,
      status: 'inactive',
      search: 'BANANA',
    });
    expect(ids(response.body.topics)).toEqual([topics.beta!.id]);
    expect(response.body.pagination.total).toBe(1);
    const none = await listTopics(admin, { parent_id: topics.root!.id, status: 'active', search: 'banana' });
    expect(none.body.topics).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });
});
