import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { expirePendingUpload } from '../../shared/domain/media/sweep-expired-uploads.ts';
import { listObjects, objectSize, writeObject } from '../../shared/integrations/media-bucket.ts';
import { MEDIA_TYPES } from '../../shared/vocabulary/media.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  CAMERA_MAKE,
  jpegWithGps,
  noisePng,
  postToBucket,
  requestUpload,
  smallGif,
  uploadPresigned,
  type Json,
  windowsExe,
} from '../support/media.ts';

/** The presigned path through the local gateway and the S3 emulator: verification never trusts the client. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const MB = 1024 * 1024;

function expectGone(pendingId: number) {
  return expect(objectSize(`pending/${pendingId}`)).resolves.toBeUndefined();
}

function expectInvalidType(response: { status: number; body: Json; text: string }) {
  expect(response.status, response.text).toBe(400);
  expect(response.body).toEqual({
    code: 'invalid_file_type',
    message: expect.any(String),
    data: { status: 400, allowed_types: [...MEDIA_TYPES] },
  });
}

describe('POST /feeds/media-upload (presigned) and POST /media/{id}/complete', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser();
  });

  it('answers 201 pending with a presigned POST pinning the key, the size range and the type', async () => {
    const response = await requestUpload(user, {
      file_name: 'a.png',
      file_type: 'image/png',
      file_size: 1234,
    });
    expect(response.status, response.text).toBe(201);
    const data = response.body.data;
    expect(response.body.message).toEqual(expect.any(String));
    expect(data).toEqual({
      id: expect.any(Number),
      status: 'pending',
      upload: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        fields: expect.any(Object),
        expires_at: expect.stringMatching(ISO),
      },
    });
    expect(data.upload.fields.key).toBe(`pending/${data.id}`);
    expect(data.upload.fields['Content-Type']).toBe('image/png');
    const policy = JSON.parse(Buffer.from(data.upload.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 10 * MB],
        ['eq', '$Content-Type', 'image/png'],
        { key: `pending/${data.id}` },
      ]),
    );
    const expiresIn = Date.parse(policy.expiration) - Date.now();
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60 * 1000);
    // Pending: not readable yet.
    const read = await api('GET', `/media/${data.id}`, { as: user });
    expect(read.status).toBe(404);
  });

  it('refuses a declared size over 10 MB and a disallowed declared type before any upload', async () => {
    const large = await requestUpload(user, {
      file_name: 'a.png',
      file_type: 'image/png',
      file_size: 11 * MB,
    });
    expect(large.status).toBe(400);
    expect(large.body).toEqual({
      code: 'file_too_large',
      message: expect.any(String),
      data: { status: 400, max_size: '10MB', file_size: '11MB' },
    });
    expectInvalidType(
      await requestUpload(user, { file_name: 'a.exe', file_type: 'application/x-msdownload', file_size: 10 }),
    );
    const missing = await requestUpload(user, { file_name: 'a.png', file_type: 'image/png' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['file_size'] },
    });
  });

  it('completes a 9.9 MB PNG with its dimensions and a fetchable thumbnail', async () => {
    const png = await noisePng(1922);
    expect(png.length).toBeGreaterThan(9.8 * MB);
    expect(png.length).toBeLessThan(10 * MB);
    const { pending, complete } = await uploadPresigned(user, {
      bytes: png,
      name: 'big.png',
      type: 'image/png',
    });
    expect(complete.status, complete.text).toBe(200);
    expect(complete.body).toEqual({
      message: expect.any(String),
      data: {
        id: pending.id,
        status: 'active',
        file_name: 'big.png',
        file_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/.+\.png$/),
        file_type: 'image/png',
        file_size: expect.any(Number),
        width: 1800,
        height: 1922,
        thumbnail_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        created_at: expect.stringMatching(ISO),
      },
    });
    const thumbnail = await fetch(complete.body.data.thumbnail_url);
    expect(thumbnail.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    const file = await fetch(complete.body.data.file_url);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(1800);
    // The original under pending/ is gone: the served copy is the verified one.
    await expectGone(pending.id);
    // Completing again answers the same data.
    const again = await api<Json>('POST', `/media/${pending.id}/complete`, { as: user });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(complete.body.data);
  }, 60_000);

  it('refuses a 10.1 MB file twice: at the bucket (its policy), and at completion if one got there anyway', async () => {
    const bytes = Buffer.concat([await smallGif(), Buffer.alloc(Math.round(10.1 * MB))]);
    const requested = await requestUpload(user, {
      file_name: 'huge.gif',
      file_type: 'image/gif',
      file_size: 9 * MB,
    });
    expect(requested.status, requested.text).toBe(201);
    const data = requested.body.data as {
      id: number;
      upload: { url: string; fields: Record<string, string> };
    };
    const pending = { id: data.id, url: data.upload.url, fields: data.upload.fields };
    // The presigned policy caps the size: the bucket refuses the POST, as S3 does.
    expect((await postToBucket(pending, bytes, 'image/gif')).status).toBe(400);
    await expectGone(pending.id);
    // Completion never trusts the bucket: an oversized object written there by other means is refused and deleted.
    await writeObject(`pending/${pending.id}`, bytes, 'image/gif');
    const complete = await api('POST', `/media/${pending.id}/complete`, { as: user });
    expect(complete.status, complete.text).toBe(400);
    expect(complete.body).toEqual({
      code: 'file_too_large',
      message: expect.any(String),
      data: { status: 400, max_size: '10MB', file_size: '10.1MB' },
    });
    await expectGone(pending.id);
    expect((await api('GET', `/media/${pending.id}`, { as: user })).status).toBe(404);
    expect((await api('POST', `/media/${pending.id}/complete`, { as: user })).status).toBe(404);
  }, 30_000);

  it('refuses a Windows executable renamed .png and declared image/png, and deletes it', async () => {
    const { pending, complete } = await uploadPresigned(user, {
      bytes: windowsExe(),
      name: 'cat.png',
      type: 'image/png',
    });
    expectInvalidType(complete);
    await expectGone(pending.id);
  });

  it('refuses a real GIF declared as image/png', async () => {
    const { pending, complete } = await uploadPresigned(user, {
      bytes: await smallGif(),
      name: 'x.png',
      type: 'image/png',
    });
    expectInvalidType(complete);
    await expectGone(pending.id);
  });

  it('serves a JPEG with GPS EXIF without any of its metadata', async () => {
    const jpeg = await jpegWithGps();
    const exif = (await sharp(jpeg).metadata()).exif;
    expect(exif?.includes(Buffer.from(CAMERA_MAKE))).toBe(true);
    // The GPS directory (IFD pointer tag 0x8825) is in the original.
    expect(jpeg.includes(Buffer.from([0x88, 0x25])) || jpeg.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    const { complete } = await uploadPresigned(user, { bytes: jpeg, name: 'trip.jpg', type: 'image/jpeg' });
    expect(complete.status, complete.text).toBe(200);
    expect(complete.body.data).toMatchObject({ file_type: 'image/jpeg', width: 64, height: 48 });
    const served = Buffer.from(await (await fetch(complete.body.data.file_url)).arrayBuffer());
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(served.includes(Buffer.from(CAMERA_MAKE))).toBe(false);
    expect(served.includes(Buffer.from('Exif\0\0'))).toBe(false);
  });

  it('answers upload_missing before anything is posted, and 403 to another user', async () => {
    const requested = await requestUpload(user, {
      file_name: 'a.gif',
      file_type: 'image/gif',
      file_size: 100,
    });
    const id = requested.body.data.id as number;
    const other = await createTestUser();
    const foreign = await api('POST', `/media/${id}/complete`, { as: other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    const early = await api('POST', `/media/${id}/complete`, { as: user });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ code: 'upload_missing', data: { status: 400 } });
    const posted = await postToBucket(
      { id, url: requested.body.data.upload.url, fields: requested.body.data.upload.fields },
      await smallGif(),
      'image/gif',
    );
    expect(posted.ok).toBe(true);
    const done = await api('POST', `/media/${id}/complete`, { as: user });
    expect(done.status, done.text).toBe(200);
  });

  it('expires an upload never completed: the sweep removes its object and item after 24 hours', async () => {
    const requested = await requestUpload(user, {
      file_name: 'late.gif',
      file_type: 'image/gif',
      file_size: 100,
    });
    const id = requested.body.data.id as number;
    const upload = { id, url: requested.body.data.upload.url, fields: requested.body.data.upload.fields };
    expect((await postToBucket(upload, await smallGif(), 'image/gif')).ok).toBe(true);
    let object: { key: string; modified: Date } | undefined;
    for await (const listed of listObjects(`pending/${id}`))
      if (listed.key === `pending/${id}`) object = listed;
    if (!object) throw new Error('the posted object is not listed');
    expect(await expirePendingUpload(object, Date.now())).toBe(false);
    expect(await objectSize(`pending/${id}`)).toBeGreaterThan(0);
    expect(await expirePendingUpload(object, Date.now() + 24 * 60 * 60 * 1000 + 1000)).toBe(true);
    await expectGone(id);
    const late = await api('POST', `/media/${id}/complete`, { as: user });
    expect(late.status).toBe(404);
    expect(late.body).toMatchObject({ code: 'media_not_found' });
  });
});
