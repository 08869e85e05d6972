import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { env } from '../../config/env.ts';
import type { BuddypressUploads, SourceImage, UploadsImage, UploadsOwner } from './uploads-location.ts';
import { imageFolder, pickImageFile, SOURCE_IMAGE_MAX_BYTES, SourceImageTooLarge } from './uploads-layout.ts';

/**
 * A client for the bucket operators sync the uploads folder to. Locally (tests) that is the S3 emulator; in the
 * cloud the SDK's defaults, following a redirect when the bucket lives in another region than the function.
 */
function sourceClient(): S3Client {
  const { S3_ENDPOINT, AWS_REGION } = env();
  return new S3Client({
    region: AWS_REGION,
    followRegionRedirects: true,
    ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
  });
}

/**
 * The uploads folder as objects under `s3://bucket/prefix/` (the folder's relative paths are the keys after the
 * prefix). An image is one ListObjectsV2 of its folder with the `/` delimiter, so `history/` and anything deeper
 * come back as common prefixes and are never candidates, then one GetObject of the chosen key. Keys are built from
 * the numeric id and names from that listing only.
 */
export function s3Uploads(
  bucket: string,
  prefix: string,
  client: S3Client = sourceClient(),
): BuddypressUploads {
  const base = prefix.replace(/^\/+|\/+$/g, '');
  const root = base === '' ? '' : `${base}/`;
  return {
    async image(owner: UploadsOwner, sourceId: number, kind: UploadsImage): Promise<SourceImage | undefined> {
      const folder = `${root}${imageFolder(owner, sourceId, kind).join('/')}/`;
      const sizes = new Map<string, number>();
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: folder,
            Delimiter: '/',
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          // A sync tool's zero-byte folder marker (`…/cover-image/`) has an empty name and is no candidate.
          const name = object.Key?.slice(folder.length) ?? '';
          if (name !== '') sizes.set(name, object.Size ?? 0);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      const name = pickImageFile(kind, [...sizes.keys()]);
      if (name === undefined) return undefined;
      const listed = sizes.get(name) ?? 0;
      if (listed > SOURCE_IMAGE_MAX_BYTES) throw new SourceImageTooLarge(name, listed);
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${folder}${name}` }));
      if ((object.ContentLength ?? 0) > SOURCE_IMAGE_MAX_BYTES) {
        (object.Body as { destroy?: () => void } | undefined)?.destroy?.();
        throw new SourceImageTooLarge(name, object.ContentLength ?? 0);
      }
      const bytes = object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      if (bytes.length > SOURCE_IMAGE_MAX_BYTES) throw new SourceImageTooLarge(name, bytes.length);
      return { name, bytes };
    },

    async reachable(): Promise<boolean> {
      try {
        await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: root, MaxKeys: 1 }));
        return true;
      } catch {
        return false;
      }
    },
  };
}
