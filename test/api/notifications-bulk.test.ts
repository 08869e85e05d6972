import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../shared/domain/notifications/index.ts';
import { findNotificationById } from '../../shared/domain/notifications/notification-repository.ts';
import type { NotificationType } from '../../shared/vocabulary/notifications.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { emitStored } from '../support/notifications.ts';

/**
 * Mark-all-read and delete-all at any size: one write on the stats item (a watermark), every read path honouring
 * it at once, and the tidy worker bringing the stored items in line afterwards without moving a count.
 */

type Item = { id: number; is_read: boolean; read_at: string | null; type: string };
type Paginator = { data: Item[]; total: number; next_page_url: string | null };

const event = (actorId: number, type: NotificationType): NotificationEvent => ({
  type,
  actorId,
  title: `A ${type}`,
  message: 'Something happened.',
  actionUrl: '/feeds/1',
  objectId: 1,
  objectType: 'feed',
});

async function emitMany(
  recipient: TestUser,
  actor: TestUser,
  count: number,
  type: NotificationType = 'new_comment',
) {
  const events = Array.from({ length: count }, () => event(actor.id, type));
  return (await emitStored(recipient, events)).map((item) => item.id);
}

const list = (as: TestUser, query: Record<string, string | number | boolean> = {}) =>
  api<{ notifications: Paginator }>('GET', '/notifications', { as, query });

/** Every item of a filtered list, following next_page_url with its cursor. */
async function walk(as: TestUser, query: Record<string, string | number | boolean>): Promise<Item[]> {
  const items: Item[] = [];
  let response = await list(as, { ...query, per_page: 7 });
  for (;;) {
    expect(response.status).toBe(200);
    items.push(...response.body.notifications.data);
    const next = response.body.notifications.next_page_url;
    if (!next) return items;
    const url = new URL(next);
    response = await api('GET', `${url.pathname.replace(/^\/v2/, '')}${url.search}`, { as });
  }
}

/** Polls until the tidy worker has brought the stored items in line (the local poller runs it). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the tidy worker did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('POST /notifications/mark-all-read at size', () => {
  it('marks everything in one write; every list and count is exact at once and after tidying', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    const comments = await emitMany(recipient, actor, 25, 'new_comment');
    const mentions = await emitMany(recipient, actor, 8, 'mention');
    // Two read on their own before the bulk action: they keep their own read_at.
    const own = await api<{ data: { read_at: string } }>('POST', `/notifications/${comments[0]}/read`, {
      as: recipient,
    });
    await api('POST', `/notifications/${mentions[0]}/read`, { as: recipient });

    const marked = await api<{ data: { marked_count: number } }>('POST', '/notifications/mark-all-read', {
      as: recipient,
    });
    expect(marked.status).toBe(200);
    expect(marked.body.data.marked_count).toBe(31);

    const check = async () => {
      const unread = await api<{ notifications: Item[]; unread_count: number }>(
        'GET',
        '/notifications/unread',
        {
          as: recipient,
        },
      );
      expect(unread.body).toMatchObject({ notifications: [], unread_count: 0 });
      expect((await list(recipient, { is_read: false })).body.notifications).toMatchObject({
        total: 0,
        data: [],
      });
      const read = await walk(recipient, { is_read: true });
      expect(read.map((item) => item.id).sort((a, b) => a - b)).toEqual(
        [...comments, ...mentions].sort((a, b) => a - b),
      );
      expect(read.every((item) => item.is_read && item.read_at !== null)).toBe(true);
      expect(read.find((item) => item.id === comments[0])?.read_at).toBe(own.body.data.read_at);
      expect((await list(recipient, { is_read: true })).body.notifications.total).toBe(33);
      const mentionsRead = await walk(recipient, { type: 'mention', is_read: true });
      expect(mentionsRead).toHaveLength(8);
      expect((await list(recipient, { type: 'mention', is_read: false })).body.notifications.total).toBe(0);
      const all = await walk(recipient, {});
      expect(all).toHaveLength(33);
      expect(all.every((item) => item.is_read)).toBe(true);
    };
    await check();

    // Marking one of them now is the already-read answer, not a second decrement.
    const again = await api<{ message: string }>('POST', `/notifications/${comments[5]}/read`, {
      as: recipient,
    });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Notification is already marked as read.');

    // A notification after the bulk action is unread and counted.
    const [later] = await emitMany(recipient, actor, 1, 'mention');
    const unread = await api<{ notifications: Item[]; unread_count: number }>(
      'GET',
      '/notifications/unread',
      {
        as: recipient,
      },
    );
    expect(unread.body.unread_count).toBe(1);
    expect(unread.body.notifications.map((item) => item.id)).toEqual([later]);

    await eventually(async () => (await findNotificationById(comments[24]!))?.is_read === true);
    await eventually(async () => (await findNotificationById(mentions[7]!))?.is_read === true);
    expect((await findNotificationById(later!))?.is_read).toBe(false);
    // After tidying, the same answers.
    expect((await list(recipient, { is_read: false })).body.notifications.total).toBe(1);
    expect((await walk(recipient, { is_read: true })).length).toBe(33);
  });
});

describe('DELETE /notifications/delete-all at size', () => {
  it('deletes everything in one write; nothing is visible at once, and the items go afterwards', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    const ids = await emitMany(recipient, actor, 30, 'new_reaction');
    await api('POST', '/notifications/mark-all-read', { as: recipient });
    const unreadAfter = await emitMany(recipient, actor, 4, 'new_comment');

    const deleted = await api<{ data: { deleted_count: number } }>('DELETE', '/notifications/delete-all', {
      as: recipient,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deleted_count).toBe(34);

    const queries: Record<string, string | boolean>[] = [
      {},
      { is_read: true },
      { is_read: false },
      { type: 'new_reaction' },
    ];
    for (const query of queries) {
      expect((await list(recipient, query)).body.notifications).toMatchObject({ total: 0, data: [] });
    }
    expect((await api('GET', '/notifications/unread', { as: recipient })).body).toMatchObject({
      notifications: [],
      unread_count: 0,
    });
    for (const id of [ids[0], unreadAfter[0]]) {
      expect((await api('POST', `/notifications/${id}/read`, { as: recipient })).body).toMatchObject({
        code: 'notification_not_found',
      });
      expect((await api('DELETE', `/notifications/${id}`, { as: recipient })).status).toBe(404);
    }

    const [fresh] = await emitMany(recipient, actor, 1, 'mention');
    const after = await list(recipient);
    expect(after.body.notifications.total).toBe(1);
    expect(after.body.notifications.data.map((item) => item.id)).toEqual([fresh]);

    await eventually(async () => (await findNotificationById(ids[29]!)) === undefined);
    await eventually(async () => (await findNotificationById(unreadAfter[3]!)) === undefined);
    expect(await findNotificationById(fresh!)).toBeDefined();
    expect((await list(recipient)).body.notifications.total).toBe(1);
  });
});

describe('item 10: mark-all-read and delete-all take no body', () => {
  it('refuse malformed JSON and unknown keys (400) and change nothing; an empty object passes', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    await emitMany(recipient, actor, 2);
    const json = { 'content-type': 'application/json' };
    for (const [method, path] of [
      ['POST', '/notifications/mark-all-read'],
      ['DELETE', '/notifications/delete-all'],
    ] as const) {
      const malformed = await api(method, path, { as: recipient, rawBody: '{not json', headers: json });
      expect(malformed.status, malformed.text).toBe(400);
      expect(malformed.body).toMatchObject({ code: 'rest_invalid_json' });
      const unknown = await api(method, path, { as: recipient, body: { ids: [1] } });
      expect(unknown.status, unknown.text).toBe(400);
      expect(unknown.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { ids: 'is not a known field' } },
      });
    }
    const page = (await list(recipient)).body.notifications;
    expect(page.total).toBe(2);
    expect(page.data.every((item) => !item.is_read)).toBe(true);
    const read = await api('POST', '/notifications/mark-all-read', { as: recipient, body: {} });
    expect(read.status, read.text).toBe(200);
  });
});
