import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { type ApiResponse, api, type TestUser } from './api.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests walk response bodies freely.
export type Json = Record<string, any>;

/** Test files are generated here, never committed: images with sharp, other files from their magic bytes. */

/** A PNG of random noise (incompressible at level 0), `height` rows of 1800 RGB pixels. */
export function noisePng(height: number): Promise<Buffer> {
  const width = 1800;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export function smallGif(width = 12, height = 7): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .gif()
    .toBuffer();
}

export function smallPng(width = 20, height = 10): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#33aa55' } })
    .png()
    .toBuffer();
}

export const CAMERA_MAKE = 'SpyCam Industries';

/** A JPEG whose EXIF names a camera and carries a GPS position (IFD3 is the GPS directory). */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#8080ff' } })
    .jpeg()
    .withExif({
      IFD0: { Make: CAMERA_MAKE, Model: 'Model 7' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    })
    .toBuffer();
}

/** The start of a Windows PE executable (`MZ` header pointing at a `PE\0\0` signature), padded. */
export function windowsExe(size = 4096): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  bytes.writeUInt16LE(0x14c, 0x84);
  return bytes;
}

/** A multipart body for the api() helper: the bytes and the Content-Type with its boundary. */
export async function multipartBody(
  form: FormData,
): Promise<{ rawBody: Buffer; headers: Record<string, string> }> {
  const response = new Response(form);
  return {
    rawBody: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type') ?? '' },
  };
}

export async function uploadMultipart(
  user: TestUser,
  file: { bytes: Uint8Array; name: string; type: string } | undefined,
  fields: Record<string, string> = {},
): Promise<ApiResponse<Json>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  return api('POST', '/feeds/media-upload', { as: user, ...(await multipartBody(form)) });
}

export interface PendingUpload {
  readonly id: number;
  readonly url: string;
  readonly fields: Record<string, string>;
}

/** Asks for a presigned upload and answers it (the test asserts the status itself when it needs to). */
export async function requestUpload(
  user: TestUser,
  body: Record<string, unknown>,
): Promise<ApiResponse<Json>> {
  return api('POST', '/feeds/media-upload', { as: user, body });
}

/** Posts a file to a presigned upload as a browser would: every field, then the file last. */
export async function postToBucket(
  upload: PendingUpload,
  bytes: Uint8Array,
  type: string,
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type }), 'upload');
  return fetch(upload.url, { method: 'POST', body: form });
}

/** Presign, post the bytes, complete: the whole presigned path. */
export async function uploadPresigned(
  user: TestUser,
  file: { bytes: Uint8Array; name: string; type: string; declaredSize?: number },
): Promise<{ pending: PendingUpload; complete: ApiResponse<Json> }> {
  const requested = await requestUpload(user, {
    file_name: file.name,
    file_type: file.type,
    file_size: file.declaredSize ?? file.bytes.length,
  });
  if (requested.status !== 201) throw new Error(`presign failed: ${requested.status} ${requested.text}`);
  const data = requested.body.data as { id: number; upload: { url: string; fields: Record<string, string> } };
  const pending = { id: data.id, url: data.upload.url, fields: data.upload.fields };
  const posted = await postToBucket(pending, file.bytes, file.type);
  if (!posted.ok) throw new Error(`bucket POST failed: ${posted.status} ${await posted.text()}`);
  const complete = await api<Json>('POST', `/media/${pending.id}/complete`, { as: user });
  return { pending, complete };
}
