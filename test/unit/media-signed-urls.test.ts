import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { resetSecretCache } from '../../shared/config/secrets.ts';
import type { MediaItem } from '../../shared/domain/media/media-item.ts';
import { SIGNED_URL_SECONDS, withServedUrls } from '../../shared/domain/media/media-urls.ts';

/**
 * Issue 21 item 1: in the cloud, files of private and secret spaces get CloudFront signed URLs (canned policy:
 * `Expires`, `Signature`, `Key-Pair-Id`) that the CDN's key group checks; public files keep their plain CDN URL.
 * The signature is checked here with the public half, as CloudFront does.
 */
const CDN = 'https://d111111abcdef8.cloudfront.net';
const KEY_PAIR_ID = 'K2JCJMDEHXQW5F';
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const saved = { ...process.env };
function withEnvironment(variables: Record<string, string>): void {
  Object.assign(process.env, { TABLE_NAME: 'table', MEDIA_PUBLIC_BASE_URL: CDN, ...variables });
  resetEnvCache();
  resetSecretCache();
}
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
  resetSecretCache();
});

function item(s3Key: string, thumbnailKey: string | null): MediaItem {
  return {
    id: 7,
    user_id: 1,
    file_name: 'photo.png',
    file_type: 'image/png',
    file_size: 10,
    s3_key: s3Key,
    thumbnail_key: thumbnailKey,
    file_url: `${CDN}/${s3Key}`,
    thumbnail_url: thumbnailKey ? `${CDN}/${thumbnailKey}` : null,
    width: 1,
    height: 1,
    object_source: 'feed',
    object_id: 3,
    status: 'active',
    visibility: 'members',
    visibility_space_id: 4,
    created_at: '2026-01-01T00:00:00.000Z',
  } as MediaItem;
}

/** CloudFront's URL-safe Base64 back to bytes (`-` `_` `~` for `+` `=` `/`). */
const fromCloudFrontBase64 = (value: string) =>
  Buffer.from(value.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

/** Checks a signed URL as CloudFront would for a canned policy, and returns its expiry (epoch seconds). */
function checkSigned(url: string, expectedPath: string): number {
  const parsed = new URL(url);
  expect(`${parsed.origin}${parsed.pathname}`).toBe(`${CDN}${expectedPath}`);
  const expires = Number(parsed.searchParams.get('Expires'));
  const signature = parsed.searchParams.get('Signature') ?? '';
  expect(parsed.searchParams.get('Key-Pair-Id')).toBe(KEY_PAIR_ID);
  const resource = `${parsed.origin}${parsed.pathname}`;
  const policy = JSON.stringify({
    Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }],
  });
  const valid = verify(
    'RSA-SHA1',
    Buffer.from(policy),
    createPublicKey(keys.publicKey),
    fromCloudFrontBase64(signature),
  );
  expect(valid, 'signature verifies with the public key').toBe(true);
  return expires;
}

describe('URLs of served media', () => {
  it('signs CloudFront URLs of private/ files with the key pair, expiring within minutes', async () => {
    withEnvironment({ MEDIA_CDN_KEY_PAIR_ID: KEY_PAIR_ID, MEDIA_SIGNING_KEY: keys.privateKey });
    const before = Math.floor(Date.now() / 1000);
    const served = await withServedUrls(item('private/7-abc/file.png', 'private/7-abc/thumbnail.webp'));
    const after = Math.ceil(Date.now() / 1000);
    for (const [url, path] of [
      [served.file_url, '/private/7-abc/file.png'],
      [served.thumbnail_url ?? '', '/private/7-abc/thumbnail.webp'],
    ] as const) {
      const expires = checkSigned(url, path);
      expect(expires).toBeGreaterThanOrEqual(before + SIGNED_URL_SECONDS);
      expect(expires).toBeLessThanOrEqual(after + SIGNED_URL_SECONDS);
    }
    // Another key's signature does not verify: the check above is not vacuous.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signature = new URL(served.file_url).searchParams.get('Signature') ?? '';
    expect(verify('RSA-SHA1', Buffer.from('x'), other.publicKey, fromCloudFrontBase64(signature))).toBe(
      false,
    );
  });

  it('keeps the plain CDN URL of public media, unsigned', async () => {
    withEnvironment({ MEDIA_CDN_KEY_PAIR_ID: KEY_PAIR_ID, MEDIA_SIGNING_KEY: keys.privateKey });
    const publicItem = item('media/7-abc/file.png', 'media/7-abc/thumbnail.webp');
    const served = await withServedUrls(publicItem);
    expect(served.file_url).toBe(`${CDN}/media/7-abc/file.png`);
    expect(served.thumbnail_url).toBe(`${CDN}/media/7-abc/thumbnail.webp`);
    expect(new URL(served.file_url).search).toBe('');
  });

  it('presigns S3 GETs instead where no CloudFront key is configured (the local stack)', async () => {
    withEnvironment({
      MEDIA_CDN_KEY_PAIR_ID: '',
      MEDIA_BUCKET: 'media-bucket',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
      AWS_SECRET_ACCESS_KEY: 'local-secret',
    });
    const served = await withServedUrls(item('private/7-abc/file.png', null));
    const url = new URL(served.file_url);
    expect(url.pathname).toBe('/media-bucket/private/7-abc/file.png');
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(SIGNED_URL_SECONDS));
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.has('Key-Pair-Id')).toBe(false);
    expect(served.thumbnail_url).toBeNull();
  });
});
