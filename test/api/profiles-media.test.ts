import { beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, type Feed, ISO, postComment, postFeed } from '../support/feeds.ts';
import { getProfile, type Json, profileList } from '../support/profiles.ts';

/**
 * GET /profile/{username}/media: paginator D newest first, `file_type` and `object_source` filters with exact
 * totals, and visibility (decisions.md): an item only for callers who may see what it is attached to, unattached
 * ones only for the uploader and community moderators. Media records come from the import's `media` section.
 */

let member: TestUser;
let insider: TestUser;
let outsider: TestUser;
let moderator: TestUser;
let publicSpace: number;
let secretSpace: number;
let publicFeed: Feed;
let privateFeed: Feed;

const comment = postComment;

beforeAll(async () => {
  [member, insider, outsider, moderator] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  const both = [
    [member, 'member'],
    [insider, 'admin'],
  ] as const;
  publicSpace = await createSpace({ members: both });
  const privateSpace = await createSpace({ privacy: 'private', members: both });
  secretSpace = await createSpace({ privacy: 'secret', members: both });
  publicFeed = await postFeed(insider, { space_id: publicSpace, title: 'public' });
  privateFeed = await postFeed(insider, { space_id: privateSpace, title: 'private' });
});

describe('GET /profile/{username}/media', () => {
  let uploader: TestUser;
  let ids: Record<string, number>;

  beforeAll(async () => {
    uploader = await createTestUser();
    const media = (ref: string, extra: Json) => ({
      ref,
      user: uploader.username,
      file_name: `${ref}.png`,
      file_type: 'image/png',
      file_size: 100,
      file_url: `https://cdn.example.com/${ref}.png`,
      ...extra,
    });
    const result = await runImport({
      media: [
        media('onProfile', {
          object_source: 'profile',
          object_id: uploader.id,
          created_at: '2026-01-01T00:00:01Z',
        }),
        media('onPublic', {
          object_source: 'feed',
          object_id: publicFeed.id,
          created_at: '2026-01-01T00:00:02Z',
        }),
        media('onPrivate', {
          object_source: 'feed',
          object_id: privateFeed.id,
          created_at: '2026-01-01T00:00:03Z',
        }),
        media('loose', { created_at: '2026-01-01T00:00:04Z' }),
        media('pdf', {
          file_name: 'doc.pdf',
          file_type: 'application/pdf',
          object_source: 'space',
          object_id: publicSpace,
          created_at: '2026-01-01T00:00:05Z',
        }),
      ],
    });
    ids = result.media as Record<string, number>;
  });

  const list = (caller: TestUser, query: Record<string, string | number> = {}) =>
    profileList<{ data: Json[]; meta: Json }>(caller, uploader.username, 'media', query);

  it('answers paginator D, newest first, everything for the owner and moderators', async () => {
    for (const caller of [uploader, moderator]) {
      const response = await list(caller);
      expect(response.status, response.text).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
      expect(response.body.meta).toEqual({ total: 5, per_page: 20, current_page: 1 });
      expect(response.body.data.map((item) => item.id)).toEqual(
        ['pdf', 'loose', 'onPrivate', 'onPublic', 'onProfile'].map((ref) => ids[ref]),
      );
      const item = response.body.data[0] as Json;
      expect(Object.keys(item).sort()).toEqual(
        ['created_at', 'file_name', 'file_type', 'file_url', 'id', 'thumbnail_url'].sort(),
      );
      expect(item.created_at).toMatch(ISO);
    }
  });

  it('shows others only what is attached to objects they may see', async () => {
    const forOutsider = (await list(outsider)).body.data.map((item) => item.id);
    expect(forOutsider).toEqual(['pdf', 'onPublic', 'onProfile'].map((ref) => ids[ref]));
    const forInsider = (await list(insider)).body.data.map((item) => item.id);
    expect(forInsider).toEqual(['pdf', 'onPrivate', 'onPublic', 'onProfile'].map((ref) => ids[ref]));
  });

  it('filters by file_type and object_source, with exact totals', async () => {
    const pdf = (await list(uploader, { file_type: 'application/pdf' })).body;
    expect(pdf.meta.total).toBe(1);
    expect(pdf.data.map((item) => item.id)).toEqual([ids.pdf]);
    const feeds = (await list(uploader, { object_source: 'feed' })).body;
    expect(feeds.meta.total).toBe(2);
    const pngOnFeeds = (await list(uploader, { object_source: 'feed', file_type: 'image/png' })).body;
    expect(pngOnFeeds.meta.total).toBe(2);
    expect(pngOnFeeds.data.map((item) => item.id)).toEqual([ids.onPrivate, ids.onPublic]);
    const paged = (await list(uploader, { per_page: 2, page: 2 })).body;
    expect(paged.data.map((item) => item.id)).toEqual([ids.onPrivate, ids.onPublic]);
  });

  it('refuses per_page over 100 and unknown filters values (rest_invalid_param)', async () => {
    for (const [query, name] of [
      [{ per_page: 101 }, 'per_page'],
      [{ file_type: 'text/html' }, 'file_type'],
      [{ object_source: 'planet' }, 'object_source'],
    ] as const) {
      const params = expectError(await list(outsider, query), 400, 'rest_invalid_param');
      expect(Object.keys(params as object)).toEqual([name]);
    }
  });

  it('lists imported media with the profile still readable', async () => {
    expect((await getProfile(outsider, uploader.username)).status).toBe(200);
  });
});

describe('media attached to a secret space or a comment', () => {
  it('follows the visibility of what it is attached to', async () => {
    const uploader = await createTestUser();
    const onComment = await comment(member, privateFeed.id, 'with a picture');
    const item = (ref: string, extra: Json) => ({
      ref,
      user: uploader.username,
      file_name: `${ref}.png`,
      file_type: 'image/png',
      file_size: 1,
      ...extra,
    });
    const result = await runImport({
      media: [
        item('secret', {
          object_source: 'space',
          object_id: secretSpace,
          created_at: '2026-02-01T00:00:01Z',
        }),
        item('comment', {
          object_source: 'comment',
          object_id: onComment.id,
          created_at: '2026-02-01T00:00:02Z',
        }),
      ],
    });
    const ids = result.media as Record<string, number>;
    const listed = async (caller: TestUser) =>
      (await profileList<{ data: Json[] }>(caller, uploader.username, 'media')).body.data.map((m) => m.id);
    expect(await listed(outsider)).toEqual([]);
    expect(await listed(insider)).toEqual([ids.comment, ids.secret]);
  });
});
