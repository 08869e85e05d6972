import { beforeAll, describe, expect, it } from 'vitest';
import { objectSize } from '../../shared/integrations/media-bucket.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, postFeed } from '../support/feeds.ts';
import {
  type Json,
  multipartBody,
  requestUpload,
  smallGif,
  smallPng,
  uploadMultipart,
} from '../support/media.ts';

/** Multipart uploads, GET and DELETE /media/{id}, and the upload rate limit, through the local gateway. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe('POST /feeds/media-upload (multipart)', () => {
  let user: TestUser;
  let feedId: number;
  beforeAll(async () => {
    user = await createTestUser();
    const space = await createSpace({ members: [[user, 'member']] });
    feedId = (await postFeed(user, { space_id: space })).id;
  });

  it('stores a small GIF and answers 201 with the contract data', async () => {
    const gif = await smallGif(12, 7);
    const response = await uploadMultipart(
      user,
      { bytes: gif, name: 'dance.gif', type: 'image/gif' },
      { object_source: 'feed', object_id: String(feedId) },
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      message: 'File uploaded successfully.',
      data: {
        id: expect.any(Number),
        status: 'active',
        file_name: 'dance.gif',
        file_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/.+\.gif$/),
        file_type: 'image/gif',
        file_size: expect.any(Number),
        width: 12,
        height: 7,
        thumbnail_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        created_at: expect.stringMatching(ISO),
      },
    });
    expect((await fetch(response.body.data.file_url)).status).toBe(200);
    expect((await fetch(response.body.data.thumbnail_url)).status).toBe(200);
  });

  it('keeps a UTF-8 file name and drops any directory part', async () => {
    const response = await uploadMultipart(user, {
      bytes: await smallGif(),
      name: 'C:\\photos\\été à Zürich.gif',
      type: 'image/gif',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.file_name).toBe('été à Zürich.gif');
  });

  it('refuses a 0-byte file and a missing file field with 400, storing nothing', async () => {
    const empty = await uploadMultipart(user, {
      bytes: new Uint8Array(),
      name: 'empty.png',
      type: 'image/png',
    });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { file: expect.any(String) } },
    });
    const missing = await uploadMultipart(user, undefined, { object_source: 'feed' });
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): file',
      data: { status: 400, params: ['file'] },
    });
  });

  it('refuses a form with two files, a broken form and a body that is neither form nor JSON', async () => {
    const gif = await smallGif();
    const form = new FormData();
    form.append('file', new Blob([gif], { type: 'image/gif' }), 'a.gif');
    form.append('other', new Blob([gif], { type: 'image/gif' }), 'b.gif');
    const two = await api('POST', '/feeds/media-upload', { as: user, ...(await multipartBody(form)) });
    expect(two.status, two.text).toBe(400);
    expect(two.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    const broken = await api('POST', '/feeds/media-upload', {
      as: user,
      rawBody: Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.status, broken.text).toBe(400);
    const text = await api('POST', '/feeds/media-upload', {
      as: user,
      rawBody: Buffer.from('hello'),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'rest_unsupported_media_type' });
  });

  it('refuses a bad object_source and a file whose content is not its declared type', async () => {
    const gif = await smallGif();
    const badSource = await uploadMultipart(
      user,
      { bytes: gif, name: 'a.gif', type: 'image/gif' },
      { object_source: 'x' },
    );
    expect(badSource.status).toBe(400);
    expect(badSource.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { object_source: expect.any(String) } },
    });
    const lying = await uploadMultipart(user, { bytes: gif, name: 'a.png', type: 'image/png' });
    expect(lying.status).toBe(400);
    expect(lying.body).toMatchObject({
      code: 'invalid_file_type',
      data: { allowed_types: expect.arrayContaining(['image/png']) },
    });
  });
});

describe('GET and DELETE /media/{id}', () => {
  let owner: TestUser;
  let other: TestUser;
  let moderator: TestUser;
  beforeAll(async () => {
    [owner, other, moderator] = await Promise.all([
      createTestUser({ displayName: 'Media Owner' }),
      createTestUser(),
      createTestUser({ communityRole: 'moderator' }),
    ]);
  });

  async function upload(user: TestUser): Promise<Json> {
    const response = await uploadMultipart(
      user,
      { bytes: await smallPng(), name: 'pic.png', type: 'image/png' },
      { object_source: 'profile', object_id: String(user.id) },
    );
    expect(response.status, response.text).toBe(201);
    return response.body.data;
  }

  it('GET answers the Media with its uploader', async () => {
    const uploaded = await upload(owner);
    const response = await api<Json>('GET', `/media/${uploaded.id}`, { as: other });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      data: {
        id: uploaded.id,
        user_id: owner.id,
        file_name: 'pic.png',
        file_path: expect.stringMatching(/^media\/\d+-[\w-]+\/file\.png$/),
        file_url: uploaded.file_url,
        file_type: 'image/png',
        file_size: uploaded.file_size,
        width: 20,
        height: 10,
        thumbnail_url: uploaded.thumbnail_url,
        object_source: 'profile',
        object_id: owner.id,
        status: 'active',
        created_at: uploaded.created_at,
        uploader: { id: owner.id, display_name: 'Media Owner', avatar: expect.any(String) },
      },
    });
  });

  it('GET of an unknown id is 404 media_not_found', async () => {
    const response = await api('GET', '/media/999999999', { as: owner });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      code: 'media_not_found',
      message: 'Media not found.',
      data: { status: 404 },
    });
  });

  it("another user's delete is 403 and changes nothing; the owner's removes every object, then 404", async () => {
    const uploaded = await upload(owner);
    const refused = await api('DELETE', `/media/${uploaded.id}`, { as: other });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    expect((await fetch(uploaded.file_url)).status).toBe(200);

    const deleted = await api('DELETE', `/media/${uploaded.id}`, { as: owner });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ message: 'Media deleted successfully.' });
    for (const url of [uploaded.file_url, uploaded.thumbnail_url]) {
      expect([403, 404]).toContain((await fetch(url)).status);
    }
    const path = new URL(uploaded.file_url).pathname.split('/').slice(2).join('/');
    expect(await objectSize(decodeURIComponent(path))).toBeUndefined();
    const after = await api('GET', `/media/${uploaded.id}`, { as: owner });
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ code: 'media_not_found' });
    expect((await api('DELETE', `/media/${uploaded.id}`, { as: owner })).status).toBe(404);
  });

  it('a community moderator may delete anyone’s media', async () => {
    const uploaded = await upload(owner);
    const deleted = await api('DELETE', `/media/${uploaded.id}`, { as: moderator });
    expect(deleted.status, deleted.text).toBe(200);
    expect([403, 404]).toContain((await fetch(uploaded.file_url)).status);
  });
});

describe('upload rate limit', () => {
  it('the eleventh upload within a minute is 429 rest_too_many_requests', async () => {
    const user = await createTestUser();
    const ask = () => requestUpload(user, { file_name: 'a.png', file_type: 'image/png', file_size: 100 });
    // Concurrent, as from several Lambdas: exactly ten pass.
    const first = await Promise.all(Array.from({ length: 10 }, ask));
    expect(first.map((response) => response.status)).toEqual(Array(10).fill(201));
    const eleventh = await ask();
    expect(eleventh.status, eleventh.text).toBe(429);
    expect(eleventh.body).toEqual({
      code: 'rest_too_many_requests',
      message: expect.any(String),
      data: { status: 429 },
    });
    // Multipart uploads count against the same limit.
    const multipart = await uploadMultipart(user, {
      bytes: await smallGif(),
      name: 'a.gif',
      type: 'image/gif',
    });
    expect(multipart.status).toBe(429);
    // Another user is not affected.
    const fresh = await createTestUser();
    const theirs = await requestUpload(fresh, { file_name: 'a.png', file_type: 'image/png', file_size: 100 });
    expect(theirs.status).toBe(201);
  });
});
