import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, type Feed, postComment, postFeed } from '../support/feeds.ts';
import { type Json, requestUpload, smallPng, uploadMultipart } from '../support/media.ts';
import { profileList } from '../support/profiles.ts';

/**
 * Issue 21, items 1, 4 and 5: who may read a media item, through the local gateway. One rule for the single read
 * and the member list: a caller who may not see what an item is attached to gets 404 `media_not_found` (as for an
 * unknown id); unattached items only for the uploader and community moderators; `meta.total` counts exactly what
 * the caller may see; an upload cannot be attached to an object that does not exist or that the caller cannot see.
 */

let uploader: TestUser;
let insider: TestUser;
let outsider: TestUser;
let moderator: TestUser;
let publicSpace: number;
let secretSpace: number;
let privateSpace: number;
let publicFeed: Feed;
let secretFeed: Feed;
let privateFeed: Feed;

beforeAll(async () => {
  [uploader, insider, outsider, moderator] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  const both = [
    [uploader, 'member'],
    [insider, 'member'],
  ] as const;
  [publicSpace, secretSpace, privateSpace] = await Promise.all([
    createSpace({ members: both }),
    createSpace({ privacy: 'secret', members: both }),
    createSpace({ privacy: 'private', members: both }),
  ]);
  [publicFeed, secretFeed, privateFeed] = await Promise.all([
    postFeed(uploader, { space_id: publicSpace }),
    postFeed(uploader, { space_id: secretSpace }),
    postFeed(uploader, { space_id: privateSpace }),
  ]);
});

async function upload(as: TestUser, fields: Record<string, string> = {}): Promise<Json> {
  const response = await uploadMultipart(
    as,
    { bytes: await smallPng(), name: 'p.png', type: 'image/png' },
    fields,
  );
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

const getMedia = (as: TestUser, id: number) => api<Json>('GET', `/media/${id}`, { as });

describe('item 1: GET /media/{id} follows what the item is attached to', () => {
  it('media of a secret space feed: 404 media_not_found for a non-member, 200 for members and moderators', async () => {
    const item = await upload(uploader, { object_source: 'feed', object_id: String(secretFeed.id) });
    const hidden = await getMedia(outsider, item.id);
    expectError(hidden, 404, 'media_not_found');
    expect(hidden.text).not.toContain(String(item.file_url));
    for (const caller of [uploader, insider, moderator]) {
      const seen = await getMedia(caller, item.id);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data).toMatchObject({ id: item.id, object_source: 'feed', object_id: secretFeed.id });
    }
  });

  it('files of a secret space: under private/, answered with 5-minute signed URLs that download', async () => {
    const item = await upload(uploader, { object_source: 'feed', object_id: String(secretFeed.id) });
    const seen = (await getMedia(insider, item.id)).body.data;
    expect(seen.file_path).toMatch(new RegExp(`^private/${item.id}-[\\w-]{16}/file\\.png$`));
    for (const url of [item.file_url, item.thumbnail_url, seen.file_url, seen.thumbnail_url] as string[]) {
      const signed = new URL(url);
      expect(signed.pathname).toContain('/private/');
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect((await fetch(url)).status, url).toBe(200);
    }
    const listed = await profileList<{ data: Json[] }>(insider, uploader.username, 'media');
    const row = listed.body.data.find((entry) => entry.id === item.id);
    expect(new URL(String(row?.file_url)).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // Public media keep a plain URL (the CDN's in the cloud).
    const open = await upload(uploader, { object_source: 'feed', object_id: String(publicFeed.id) });
    expect(new URL(open.file_url).search).toBe('');
    expect(new URL(open.file_url).pathname).toContain('/media/');
  });

  it('media of a private space (the space itself or its feed) only for its members', async () => {
    const onSpace = await upload(uploader, { object_source: 'space', object_id: String(privateSpace) });
    const onFeed = await upload(uploader, { object_source: 'feed', object_id: String(privateFeed.id) });
    for (const item of [onSpace, onFeed]) {
      expectError(await getMedia(outsider, item.id), 404, 'media_not_found');
      expect((await getMedia(insider, item.id)).status).toBe(200);
    }
  });

  it('an unattached upload only for its uploader and community moderators', async () => {
    const item = await upload(uploader);
    for (const caller of [insider, outsider])
      expectError(await getMedia(caller, item.id), 404, 'media_not_found');
    for (const caller of [uploader, moderator]) expect((await getMedia(caller, item.id)).status).toBe(200);
  });

  it('public media (a public space feed, a profile) for every member; keys are unguessable', async () => {
    const onFeed = await upload(uploader, { object_source: 'feed', object_id: String(publicFeed.id) });
    const onProfile = await upload(uploader, { object_source: 'profile', object_id: String(uploader.id) });
    for (const item of [onFeed, onProfile]) {
      const seen = await getMedia(outsider, item.id);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.file_path).toMatch(new RegExp(`^media/${item.id}-[\\w-]{16}/file\\.png$`));
    }
  });
});

describe('item 4: GET /profile/{u}/media meta.total counts only what the caller may see', () => {
  it('totals match the listed items for an outsider, a member, and the uploader (with filters)', async () => {
    const owner = await createTestUser();
    const [space, open] = await Promise.all([
      createSpace({ privacy: 'secret', members: [[owner, 'member']] }),
      createSpace({ members: [[owner, 'member']] }),
    ]);
    const hiddenFeed = await postFeed(owner, { space_id: space });
    const shown = await postFeed(owner, { space_id: open });
    await upload(owner, { object_source: 'feed', object_id: String(shown.id) });
    await upload(owner, { object_source: 'profile', object_id: String(owner.id) });
    for (let n = 0; n < 3; n++)
      await upload(owner, { object_source: 'feed', object_id: String(hiddenFeed.id) });
    await upload(owner);
    const list = async (caller: TestUser, query: Record<string, string> = {}) => {
      const response = await profileList<{ data: Json[]; meta: Json }>(
        caller,
        owner.username,
        'media',
        query,
      );
      expect(response.status, response.text).toBe(200);
      return { total: response.body.meta.total as number, listed: response.body.data.length };
    };
    expect(await list(outsider)).toEqual({ total: 2, listed: 2 });
    expect(await list(outsider, { object_source: 'feed' })).toEqual({ total: 1, listed: 1 });
    expect(await list(outsider, { file_type: 'image/png' })).toEqual({ total: 2, listed: 2 });
    expect(await list(outsider, { file_type: 'image/png', object_source: 'feed' })).toEqual({
      total: 1,
      listed: 1,
    });
    expect(await list(owner)).toEqual({ total: 6, listed: 6 });
    expect(await list(moderator, { object_source: 'feed' })).toEqual({ total: 4, listed: 4 });
  });
});

describe('item 5: an upload is attached only to an object that exists and that the caller may see', () => {
  it('refuses a feed, comment or space the caller cannot see exactly as an unknown one (404 not_found)', async () => {
    const secretComment = await postComment(uploader, secretFeed.id, 'inside');
    for (const [source, hidden, unknown] of [
      ['feed', secretFeed.id, 999_999_999],
      ['comment', secretComment.id as number, 999_999_999],
      ['space', secretSpace, 999_999_999],
    ] as const) {
      for (const objectId of [hidden, unknown]) {
        const fields = { object_source: source, object_id: String(objectId) };
        const refused = await uploadMultipart(
          outsider,
          { bytes: await smallPng(), name: 'p.png', type: 'image/png' },
          fields,
        );
        expectError(refused, 404, 'not_found');
        const presign = await requestUpload(outsider, {
          file_name: 'p.png',
          file_type: 'image/png',
          file_size: 100,
          object_source: source,
          object_id: objectId,
        });
        expectError(presign, 404, 'not_found');
      }
    }
    const listed = await profileList<{ meta: Json }>(outsider, outsider.username, 'media');
    expect(listed.body.meta.total).toBe(0);
  });

  it('refuses an unknown profile (404 user_not_found) and an object_source without object_id (400)', async () => {
    const file = { bytes: await smallPng(), name: 'p.png', type: 'image/png' };
    expectError(
      await uploadMultipart(outsider, file, { object_source: 'profile', object_id: '999999999' }),
      404,
      'user_not_found',
    );
    expectError(
      await uploadMultipart(outsider, file, { object_source: 'feed' }),
      400,
      'rest_missing_callback_param',
    );
  });

  it('accepts what the caller may see (a member attaches to its secret space)', async () => {
    const item = await upload(insider, { object_source: 'space', object_id: String(secretSpace) });
    expect((await getMedia(uploader, item.id)).status).toBe(200);
  });
});
