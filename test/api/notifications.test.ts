import { beforeAll, describe, expect, it } from 'vitest';
import {
  emitNotification,
  type NotificationEvent,
} from '../../shared/domain/notifications/emit-notification.ts';
import type { NotificationType } from '../../shared/domain/notifications/notification-item.ts';
import { api, apiUrl, createTestUser, type TestUser } from '../support/api.ts';
import { emitStored, waitForNotificationCount, waitForNotifications } from '../support/notifications.ts';

/** The six Notifications endpoints through the local gateway, against the emulators. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

type Item = Record<string, unknown> & { id: number; is_read: boolean; type: string; read_at: string | null };
type Paginator = {
  current_page: number;
  data: Item[];
  total: number;
  per_page: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  from: number | null;
  to: number | null;
  last_page: number;
};

const event = (actorId: number | null, type: NotificationType = 'space_join'): NotificationEvent => ({
  type,
  actorId,
  title: `A ${type} happened`,
  message: `Details of ${type}`,
  actionUrl: '/spaces/7',
  objectId: 7,
  objectType: 'space',
});

/** Emits one notification (as a causing request does) and answers it once the notify worker stored it. */
async function emit(recipient: TestUser, actor: TestUser | null, type: NotificationType = 'space_join') {
  const [item] = await emitStored(recipient, [event(actor?.id ?? null, type)]);
  if (!item) throw new Error('not stored');
  return item;
}

/** Follows a page URL as given: links start with the stage's public base URL, locally the gateway's own URL. */
const follow = (as: TestUser, url: string) => {
  expect(url.startsWith(`${apiUrl()}/`), url).toBe(true);
  return api<{ notifications: Paginator }>('GET', url, { as });
};

const list = (as: TestUser, query: Record<string, string | number | boolean> = {}) =>
  api<{ notifications: Paginator }>('GET', '/notifications', { as, query });

describe('authentication', () => {
  it.each([
    ['GET', '/notifications'],
    ['GET', '/notifications/unread'],
    ['POST', '/notifications/1/read'],
    ['POST', '/notifications/mark-all-read'],
    ['DELETE', '/notifications/1'],
    ['DELETE', '/notifications/delete-all'],
    ['GET', '/profile/notification-preferences'],
    ['PUT', '/profile/notification-preferences'],
  ])('%s %s without credentials is 401 rest_not_logged_in', async (method, path) => {
    const response = await api(method, path);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'rest_not_logged_in', data: { status: 401 } });
  });
});

describe('GET /notifications', () => {
  let recipient: TestUser;
  let actor: TestUser;
  const ids: number[] = [];

  beforeAll(async () => {
    [recipient, actor] = await Promise.all([createTestUser(), createTestUser({ displayName: 'The Actor' })]);
    // Sequential so ids and created_at increase together: 5 space_join, 2 lesson_complete (stored without an
    // actor: the student, their recipient, is answered as the actor).
    for (let i = 0; i < 5; i++) ids.push((await emit(recipient, actor)).id);
    for (let i = 0; i < 2; i++) ids.push((await emit(recipient, null, 'lesson_complete')).id);
    const read = await api('POST', `/notifications/${ids[0]}/read`, { as: recipient });
    expect(read.status).toBe(200);
  });

  it('answers paginator B of the caller’s notifications, every field', async () => {
    const response = await list(recipient);
    expect(response.status).toBe(200);
    const page = response.body.notifications;
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 7, from: 1, to: 7, last_page: 1 });
    expect(page.next_page_url).toBeNull();
    expect(page.data.map((item) => item.id)).toEqual([...ids].reverse());
    const withActor = page.data.find((item) => item.id === ids[4]);
    expect(Object.keys(withActor ?? {}).sort()).toEqual(
      [
        'id',
        'user_id',
        'type',
        'title',
        'message',
        'action_url',
        'is_read',
        'actor_id',
        'object_id',
        'object_type',
        'created_at',
        'read_at',
        'xprofile',
      ].sort(),
    );
    expect(withActor).toMatchObject({
      user_id: recipient.id,
      type: 'space_join',
      title: 'A space_join happened',
      message: 'Details of space_join',
      action_url: '/spaces/7',
      is_read: false,
      actor_id: actor.id,
      object_id: 7,
      object_type: 'space',
      read_at: null,
      xprofile: {
        user_id: actor.id,
        username: actor.username,
        display_name: 'The Actor',
        badge: null,
        meta: { social_links: { twitter: '', youtube: '', linkedin: '', fb: '', instagram: '' } },
      },
    });
    expect(withActor?.created_at).toMatch(ISO);
    expect((withActor?.xprofile as { created_at: string } | undefined)?.created_at).toMatch(ISO);
    const read = page.data.find((item) => item.id === ids[0]);
    expect(read?.is_read).toBe(true);
    expect(read?.read_at).toMatch(ISO);
    const ownAction = page.data.find((item) => item.id === ids[6]);
    expect(ownAction).toMatchObject({
      actor_id: recipient.id,
      xprofile: expect.objectContaining({ user_id: recipient.id }),
      type: 'lesson_complete',
    });
  });

  it('filters by is_read, type and both, with exact totals', async () => {
    const unread = (await list(recipient, { is_read: false })).body.notifications;
    expect(unread.total).toBe(6);
    expect(unread.data.every((item) => !item.is_read)).toBe(true);
    const read = (await list(recipient, { is_read: 'true' })).body.notifications;
    expect(read.data.map((item) => item.id)).toEqual([ids[0]]);
    expect(read.total).toBe(1);
    const byType = (await list(recipient, { type: 'lesson_complete' })).body.notifications;
    expect(byType.data.map((item) => item.id)).toEqual([ids[6], ids[5]]);
    expect(byType.total).toBe(2);
    const both = (await list(recipient, { type: 'space_join', is_read: 1 })).body.notifications;
    expect(both.data.map((item) => item.id)).toEqual([ids[0]]);
    const bothUnread = (await list(recipient, { type: 'space_join', is_read: 0 })).body.notifications;
    expect(bothUnread.total).toBe(4);
    const none = (await list(recipient, { type: 'mention' })).body.notifications;
    expect(none).toMatchObject({ total: 0, data: [], from: null, to: null });
  });

  it('orders by created_at or id, asc or desc', async () => {
    const ascending = [...ids];
    const descending = [...ids].reverse();
    for (const orderby of ['created_at', 'id']) {
      expect(
        (await list(recipient, { orderby, order: 'asc' })).body.notifications.data.map((i) => i.id),
      ).toEqual(ascending);
      expect(
        (await list(recipient, { orderby, order: 'desc' })).body.notifications.data.map((i) => i.id),
      ).toEqual(descending);
    }
  });

  it('pages: a page past the end is empty, next_page_url carries a cursor that leads to the next page', async () => {
    const first = (await list(recipient, { per_page: 3 })).body.notifications;
    expect(first).toMatchObject({ total: 7, last_page: 3, from: 1, to: 3, prev_page_url: null });
    expect(first.next_page_url).toContain('cursor=');
    expect(first.next_page_url).toContain('page=2');
    const second = await follow(recipient, first.next_page_url as string);
    expect(second.status).toBe(200);
    expect(second.body.notifications.data.map((item) => item.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(second.body.notifications).toMatchObject({ current_page: 2, from: 4, to: 6 });
    const byNumber = (await list(recipient, { per_page: 3, page: 2 })).body.notifications;
    expect(byNumber.data.map((item) => item.id)).toEqual([ids[3], ids[2], ids[1]]);
    const third = await follow(recipient, second.body.notifications.next_page_url as string);
    expect(third.body.notifications.data.map((item) => item.id)).toEqual([ids[0]]);
    expect(third.body.notifications.next_page_url).toBeNull();
    const past = (await list(recipient, { per_page: 3, page: 9 })).body.notifications;
    expect(past).toMatchObject({ current_page: 9, data: [], total: 7 });
  });

  it.each([
    [{ per_page: 101 }, 'per_page'],
    [{ per_page: 0 }, 'per_page'],
    [{ page: 0 }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ is_read: 'maybe' }, 'is_read'],
    [{ type: 'bogus' }, 'type'],
    [{ orderby: 'title' }, 'orderby'],
    [{ order: 'up' }, 'order'],
  ])('rejects %o with 400 rest_invalid_param naming %s', async (query, param) => {
    const response = await api<{ code: string; data: { status: number; params: Record<string, string> } }>(
      'GET',
      '/notifications',
      { as: recipient, query },
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('rest_invalid_param');
    expect(response.body.data.status).toBe(400);
    expect(Object.keys(response.body.data.params)).toEqual([param]);
  });

  it('never shows another user’s notifications', async () => {
    const stranger = await createTestUser();
    const response = await list(stranger);
    expect(response.body.notifications).toMatchObject({ total: 0, data: [] });
  });
});

describe('GET /notifications/unread', () => {
  it('answers the newest unread notifications and the exact unread_count', async () => {
    const [recipient, actor] = await Promise.all([createTestUser(), createTestUser()]);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await emit(recipient, actor)).id);
    await api('POST', `/notifications/${ids[1]}/read`, { as: recipient });
    const response = await api<{ notifications: Item[]; unread_count: number }>(
      'GET',
      '/notifications/unread',
      {
        as: recipient,
      },
    );
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['notifications', 'unread_count']);
    expect(response.body.unread_count).toBe(3);
    expect(response.body.notifications.map((item) => item.id)).toEqual([ids[3], ids[2], ids[0]]);
    expect(response.body.notifications[0]).toMatchObject({
      is_read: false,
      read_at: null,
      xprofile: { user_id: actor.id },
    });
  });
});

describe('POST /notifications/{id}/read', () => {
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [owner, other] = await Promise.all([createTestUser(), createTestUser()]);
  });

  it('marks read, then answers the already-read message with the original read_at', async () => {
    const item = await emit(owner, other);
    const first = await api<{ message: string; data: { id: number; is_read: boolean; read_at: string } }>(
      'POST',
      `/notifications/${item.id}/read`,
      { as: owner },
    );
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Notification marked as read.');
    expect(first.body.data).toEqual({ id: item.id, is_read: true, read_at: expect.stringMatching(ISO) });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await api<typeof first.body>('POST', `/notifications/${item.id}/read`, { as: owner });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      message: 'Notification is already marked as read.',
      data: { id: item.id, is_read: true, read_at: first.body.data.read_at },
    });
  });

  it('another user’s notification is 403 rest_forbidden; unknown is 404; non-integer is 400', async () => {
    const item = await emit(owner, other);
    const forbidden = await api('POST', `/notifications/${item.id}/read`, { as: other });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    const missing = await api('POST', '/notifications/999999999/read', { as: owner });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'notification_not_found', data: { status: 404 } });
    const malformed = await api('POST', '/notifications/abc/read', { as: owner });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    });
  });
});

describe('DELETE /notifications/{id}', () => {
  it('deletes one, then it is 404; another user’s is 403; non-integer is 400', async () => {
    const [owner, other] = await Promise.all([createTestUser(), createTestUser()]);
    const item = await emit(owner, other);
    const kept = await emit(owner, other);
    const forbidden = await api('DELETE', `/notifications/${item.id}`, { as: other });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'rest_forbidden' });
    const deleted = await api('DELETE', `/notifications/${item.id}`, { as: owner });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Notification deleted successfully.' });
    const again = await api('DELETE', `/notifications/${item.id}`, { as: owner });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'notification_not_found' });
    expect((await api('DELETE', '/notifications/1.5', { as: owner })).status).toBe(400);
    const remaining = (await list(owner)).body.notifications;
    expect(remaining).toMatchObject({ total: 1, data: [{ id: kept.id }] });
    const unread = await api<{ unread_count: number }>('GET', '/notifications/unread', { as: owner });
    expect(unread.body.unread_count).toBe(1);
  });
});

describe('POST /notifications/mark-all-read', () => {
  it('answers marked_count and leaves nothing unread', async () => {
    const [owner, actor] = await Promise.all([createTestUser(), createTestUser()]);
    for (let i = 0; i < 3; i++) await emit(owner, actor);
    const response = await api('POST', '/notifications/mark-all-read', { as: owner });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'All notifications have been marked as read.',
      data: { marked_count: 3 },
    });
    const again = await api('POST', '/notifications/mark-all-read', { as: owner });
    expect(again.body).toMatchObject({ data: { marked_count: 0 } });
  });

  it('race: while notifications are created concurrently, counts stay exact', async () => {
    const [owner, actor] = await Promise.all([createTestUser(), createTestUser()]);
    for (let i = 0; i < 20; i++) await emit(owner, actor);
    const concurrent = 25;
    const [marked] = await Promise.all([
      api<{ data: { marked_count: number } }>('POST', '/notifications/mark-all-read', { as: owner }),
      ...Array.from({ length: concurrent }, () =>
        emitNotification({ ...event(actor.id), recipientId: owner.id }),
      ),
    ]);
    expect(marked.status).toBe(200);
    const created = 20 + concurrent;
    await waitForNotificationCount(owner, created);
    const unreadListed = (await list(owner, { is_read: false, per_page: 100 })).body.notifications;
    const unread = await api<{ unread_count: number; notifications: Item[] }>(
      'GET',
      '/notifications/unread',
      {
        as: owner,
      },
    );
    expect(unread.body.unread_count).toBe(unreadListed.data.length);
    expect(unread.body.notifications).toHaveLength(unreadListed.data.length);
    expect(unreadListed.total).toBe(unreadListed.data.length);
    expect(marked.body.data.marked_count).toBeGreaterThanOrEqual(20);
    expect(marked.body.data.marked_count + unreadListed.data.length).toBe(created);
    expect((await list(owner)).body.notifications.total).toBe(created);
  });
});

describe('DELETE /notifications/delete-all', () => {
  it('answers deleted_count and leaves nothing', async () => {
    const [owner, actor] = await Promise.all([createTestUser(), createTestUser()]);
    for (let i = 0; i < 4; i++) await emit(owner, actor);
    const response = await api('DELETE', '/notifications/delete-all', { as: owner });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'All notifications have been deleted.',
      data: { deleted_count: 4 },
    });
    expect((await list(owner)).body.notifications).toMatchObject({ total: 0, data: [] });
    const unread = await api('GET', '/notifications/unread', { as: owner });
    expect(unread.body).toEqual({ notifications: [], unread_count: 0 });
  });
});

describe('delivery through the notify queue', () => {
  it('a notification is readable within 2 s of the request that causes it', async () => {
    const [followed, follower] = await Promise.all([createTestUser(), createTestUser()]);
    const response = await api('POST', `/profile/${followed.username}/follow`, { as: follower });
    expect(response.status, response.text).toBe(200);
    const answeredAt = Date.now();
    const [item] = await waitForNotifications(followed, (items) => items.length > 0, {}, 2_000);
    const latencyMs = Date.now() - answeredAt;
    expect(item).toMatchObject({ type: 'new_follower', actor_id: follower.id });
    process.stdout.write(`notification readable ${latencyMs} ms after the follow answered\n`);
    expect(latencyMs).toBeLessThanOrEqual(2_000);
  });
});
