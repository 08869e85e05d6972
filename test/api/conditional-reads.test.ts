import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/catalogue/index.ts';
import { emitNotification } from '../../shared/domain/notifications/index.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, postFeed } from '../support/feeds.ts';
import { waitForNotifications } from '../support/notifications.ts';

/**
 * Conditional reads (issue 24): every successful GET carries a strong `ETag` of the body the caller receives;
 * `If-None-Match` with the current tag answers 304 with no body and the same tag; a change the caller can see
 * gives 200 and a new tag; callers shown different bodies get different tags. Authenticated answers say
 * `Cache-Control: private, no-cache`.
 */
const STRONG_TAG = /^"[A-Za-z0-9_-]{43}"$/;

let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let spaceId: number;

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'admin' }),
  ]);
  spaceId = await createSpace({
    members: [
      [owner, 'member'],
      [stranger, 'member'],
    ],
  });
});

const get = (
  as: TestUser | undefined,
  path: string,
  tag?: string,
  query: Record<string, string | number> = {},
) =>
  api('GET', path, { ...(as ? { as } : {}), query, ...(tag ? { headers: { 'if-none-match': tag } } : {}) });

/** 200 with a strong tag, then 304 with no body and the same tag when revalidated; answers the tag. */
async function expectRevalidates(
  as: TestUser | undefined,
  path: string,
  query: Record<string, string | number> = {},
): Promise<string> {
  const fresh = await get(as, path, undefined, query);
  expect(fresh.status, `${path}: ${fresh.text}`).toBe(200);
  const tag = fresh.headers.get('etag') ?? '';
  expect(tag, path).toMatch(STRONG_TAG);
  if (as) expect(fresh.headers.get('cache-control'), path).toBe('private, no-cache');

  const unchanged = await get(as, path, tag, query);
  expect(unchanged.status, `${path}: ${unchanged.text}`).toBe(304);
  expect(unchanged.text).toBe('');
  expect(unchanged.headers.get('etag')).toBe(tag);
  expect(unchanged.headers.get('x-request-id')).toMatch(/\S/);
  if (as) expect(unchanged.headers.get('cache-control')).toBe('private, no-cache');
  return tag;
}

async function expectChanged(response: Promise<ApiResponse>, oldTag: string): Promise<string> {
  const answer = await response;
  expect(answer.status, answer.text).toBe(200);
  const tag = answer.headers.get('etag') ?? '';
  expect(tag).toMatch(STRONG_TAG);
  expect(tag).not.toBe(oldTag);
  return tag;
}

describe('revalidation, then a change the caller can see', () => {
  it('a list: GET /feeds', async () => {
    const query = { space_id: spaceId, per_page: 5 };
    const tag = await expectRevalidates(owner, '/feeds', query);
    await postFeed(stranger, { space_id: spaceId });
    await expectChanged(get(owner, '/feeds', tag, query), tag);
  });

  it('a single read: GET /feeds/{id}', async () => {
    const feed = await postFeed(owner, { space_id: spaceId });
    const tag = await expectRevalidates(owner, `/feeds/${feed.id}`);
    const edited = await api('PUT', `/feeds/${feed.id}`, { as: owner, body: { message: 'Edited text' } });
    expect(edited.status, edited.text).toBe(200);
    await expectChanged(get(owner, `/feeds/${feed.id}`, tag), tag);
  });

  it('notifications: GET /notifications', async () => {
    const tag = await expectRevalidates(owner, '/notifications');
    await emitNotification({
      recipientId: owner.id,
      type: 'space_join',
      actorId: null,
      title: 'Conditional read',
      message: 'A change the caller sees',
      actionUrl: '/spaces/1',
      objectId: 1,
      objectType: 'space',
    });
    // The notify worker stores it a moment later: wait for it, then the old tag no longer matches.
    await waitForNotifications(owner, (items) => items.some((item) => item.title === 'Conditional read'));
    await expectChanged(get(owner, '/notifications', tag), tag);
  });

  it('settings: GET /profile/notification-preferences and GET /admin/general', async () => {
    const tag = await expectRevalidates(owner, '/profile/notification-preferences');
    const updated = await api('PUT', '/profile/notification-preferences', {
      as: owner,
      body: { digest_frequency: 'weekly' },
    });
    expect(updated.status, updated.text).toBe(200);
    await expectChanged(get(owner, '/profile/notification-preferences', tag), tag);
    await expectRevalidates(admin, '/admin/general');
  });

  it('a profile: GET /profile/me', async () => {
    const tag = await expectRevalidates(owner, '/profile/me');
    const updated = await api('PUT', '/profile/me', { as: owner, body: { display_name: 'Renamed Owner' } });
    expect(updated.status, updated.text).toBe(200);
    await expectChanged(get(owner, '/profile/me', tag), tag);
  });

  it('the public OpenAPI document too (no cache-control added)', async () => {
    await expectRevalidates(undefined, '/openapi.json');
  });
});

describe('If-None-Match forms', () => {
  it('matches a weak form and a list member, not a stale tag; `*` matches any', async () => {
    const fresh = await get(owner, '/profile/me');
    const tag = fresh.headers.get('etag') ?? '';
    expect((await get(owner, '/profile/me', `W/${tag}`)).status).toBe(304);
    expect((await get(owner, '/profile/me', `"stale", ${tag}`)).status).toBe(304);
    expect((await get(owner, '/profile/me', '*')).status).toBe(304);
    const stale = await get(owner, '/profile/me', '"stale"');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(tag);
  });

  it('does not turn an error into a 304', async () => {
    const missing = await get(owner, '/feeds/999999999', '*');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('callers who see different bodies', () => {
  it('get different tags for one profile (the owner sees private fields) and never revalidate each other’s', async () => {
    const path = `/profile/${owner.username}`;
    const asOwner = await get(owner, path);
    const asStranger = await get(stranger, path);
    expect(asOwner.status).toBe(200);
    expect(asStranger.status).toBe(200);
    expect(asOwner.text).not.toBe(asStranger.text);
    const ownerTag = asOwner.headers.get('etag') ?? '';
    expect(ownerTag).not.toBe(asStranger.headers.get('etag'));
    expect((await get(stranger, path, ownerTag)).status).toBe(200);
  });

  it('get different tags for one feed once one of them likes it', async () => {
    const feed = await postFeed(owner, { space_id: spaceId });
    const liked = await api('POST', `/feeds/${feed.id}/react`, {
      as: stranger,
      body: { react_type: 'like' },
    });
    expect(liked.status).toBe(200);
    const [asOwner, asStranger] = await Promise.all([
      get(owner, `/feeds/${feed.id}`),
      get(stranger, `/feeds/${feed.id}`),
    ]);
    expect(asOwner.headers.get('etag')).not.toBe(asStranger.headers.get('etag'));
  });
});

describe('every GET of the catalogue', () => {
  /** Required queries, so validation does not answer first. */
  const QUERIES: Readonly<Record<string, Record<string, string>>> = { searchSpaceUsers: { space_id: '1' } };

  it('answers an ETag with every 200, and 304 when revalidated', async () => {
    const reads = ROUTES.filter((route) => route.method === 'GET');
    let revalidated = 0;
    for (const route of reads) {
      const path = route.path.replace(/\{[^}]+\}/g, (name) =>
        name.includes('username') ? admin.username : '1',
      );
      const as = route.access === 'public' ? undefined : admin;
      const query = QUERIES[route.operationId] ?? {};
      const fresh = await get(as, path, undefined, query);
      const where = `${route.method} ${route.path}: ${fresh.status}`;
      if (fresh.status !== 200) {
        expect(fresh.headers.get('etag'), where).toBeNull();
        continue;
      }
      const tag = fresh.headers.get('etag') ?? '';
      expect(tag, where).toMatch(STRONG_TAG);
      const again = await get(as, path, tag, query);
      // A body that changes between two reads (none should) would be a 200 with a new tag, never a wrong 304.
      expect(again.status, where).toBe(304);
      revalidated += 1;
    }
    expect(revalidated).toBeGreaterThan(reads.length / 2);
  });
});
