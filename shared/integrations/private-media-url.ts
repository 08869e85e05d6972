import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { env } from '../config/env.ts';
import { readSecret } from '../config/secrets.ts';
import { presignedGetUrl, publicObjectUrl } from './media-bucket.ts';

/**
 * A short-lived URL that downloads one file of a private or secret space (a key under `private/`), made only for a
 * caller already found allowed to see it (shared/domain/media/media-urls.ts):
 *
 * - in the cloud, a CloudFront signed URL (canned policy: `Expires`, `Signature`, `Key-Pair-Id`) on the media CDN,
 *   whose `private/*` behaviour serves only URLs signed by a key of its key group (infra/constructs/media-bucket.ts).
 *   The private key is the `mediaSigningKey` secret, read once per cold start and never logged;
 * - where no CloudFront key is configured (`MEDIA_CDN_KEY_PAIR_ID` empty: locally, or a stage without a signing
 *   key), a presigned S3 GET signed with the function's own credentials.
 *
 * Either way the URL stops working `expiresSeconds` after it was made.
 */
export async function privateMediaUrl(key: string, expiresSeconds: number): Promise<string> {
  const keyPairId = env().MEDIA_CDN_KEY_PAIR_ID;
  if (!keyPairId) return presignedGetUrl(key, expiresSeconds);
  return getSignedUrl({
    url: publicObjectUrl(key),
    keyPairId,
    privateKey: await readSecret('mediaSigningKey'),
    dateLessThan: new Date(Date.now() + expiresSeconds * 1000),
  });
}
