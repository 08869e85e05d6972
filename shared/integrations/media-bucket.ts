import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { env } from '../config/env.ts';

let client: S3Client | undefined;
let clientEndpoint: string | undefined;

/**
 * One S3 client per process for the media bucket (`MEDIA_BUCKET`). Locally the emulator serves path-style URLs;
 * in the cloud the SDK's defaults apply. Exposed so tests can inject faults through its middleware stack.
 */
export function mediaBucketClient(): S3Client {
  const { S3_ENDPOINT, AWS_REGION } = env();
  // A local stack restarted in the same process (tests) has a new emulator endpoint.
  if (!client || clientEndpoint !== S3_ENDPOINT) {
    clientEndpoint = S3_ENDPOINT;
    client = new S3Client({
      region: AWS_REGION,
      ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
    });
  }
  return client;
}

const bucket = (): string => {
  const name = env().MEDIA_BUCKET;
  if (!name) throw new Error('MEDIA_BUCKET is not set: the function has no bucket grant');
  return name;
};

export interface PresignedPost {
  readonly url: string;
  readonly fields: Record<string, string>;
}

/**
 * A presigned POST for exactly one key: the policy pins the key, the Content-Type and a size range, and expires
 * after `expiresSeconds`. S3 enforces the policy (locally the AWS front does); the completion step re-checks anyway.
 */
export function presignPost(input: {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresSeconds: number;
}): Promise<PresignedPost> {
  return createPresignedPost(mediaBucketClient(), {
    Bucket: bucket(),
    Key: input.key,
    Conditions: [
      ['content-length-range', 1, input.maxBytes],
      ['eq', '$Content-Type', input.contentType],
    ],
    Fields: { 'Content-Type': input.contentType },
    Expires: input.expiresSeconds,
  });
}

/** The stored size of an object, or `undefined` when there is none. */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    const head = await mediaBucketClient().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (error instanceof NotFound || error instanceof NoSuchKey) return undefined;
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
      return undefined;
    throw error;
  }
}

/** The bytes of an object (callers check its size first: media objects are at most 10 MB). */
export async function readObject(key: string): Promise<Uint8Array> {
  const result = await mediaBucketClient().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if (!result.Body) return new Uint8Array();
  return result.Body.transformToByteArray();
}

export async function writeObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await mediaBucketClient().send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: bytes,
      ContentType: contentType,
      // Short: a deleted file must stop being served soon (the CDN's TTL is the same, infra media-bucket.ts).
      CacheControl: 'public, max-age=300',
    }),
  );
}

/** Deletes the keys (absent ones are fine); throws when any deletion failed, so callers never answer early. */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const result = await mediaBucketClient().send(
    new DeleteObjectsCommand({
      Bucket: bucket(),
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
  if (result.Errors && result.Errors.length > 0) {
    throw new Error(`Could not delete ${result.Errors.length} media object(s)`);
  }
}

/** Objects under a prefix with their last-modified time, a page at a time (the local pending sweep). */
export async function* listObjects(prefix: string): AsyncGenerator<{ key: string; modified: Date }> {
  let token: string | undefined;
  do {
    const page = await mediaBucketClient().send(
      new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key) yield { key: object.Key, modified: object.LastModified ?? new Date(0) };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** The URL browsers fetch a stored object at: the CDN (cloud) or the emulator's path-style URL (local). */
export function publicObjectUrl(key: string): string {
  const base = env().MEDIA_PUBLIC_BASE_URL.replace(/\/+$/, '');
  return `${base}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * A short-lived URL that downloads one object of the private bucket: a presigned GET, signed with the function's
 * own credentials (its role needs `s3:GetObject` on the key, catalogue `grants.bucket.read`). Media of private and
 * secret spaces are served this way; the CDN never serves their prefix (infra/constructs/media-bucket.ts).
 */
export function presignedGetUrl(key: string, expiresSeconds: number): Promise<string> {
  return getSignedUrl(mediaBucketClient(), new GetObjectCommand({ Bucket: bucket(), Key: key }), {
    expiresIn: expiresSeconds,
  });
}
