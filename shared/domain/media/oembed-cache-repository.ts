import * as v from 'valibot';
import { oembedCacheKey } from '../../db/keys/media.ts';
import { getItem } from '../../db/reads.ts';
import { putAction, transactWrite } from '../../db/transact.ts';
import { OEMBED_RECORD_FIELDS } from '../../vocabulary/oembed.ts';

/** A fetched oEmbed record as the API answers it. */
export const OembedRecordSchema = v.object(OEMBED_RECORD_FIELDS);
export type OembedRecord = v.InferOutput<typeof OembedRecordSchema>;

const CachedSchema = v.object({ record: OembedRecordSchema, expires_at_epoch: v.number() });

/** The cached record of a URL (by the SHA-256 of its normal form) while its TTL has not passed. */
export async function findCachedOembed(
  urlSha256: string,
  nowEpoch: number,
): Promise<OembedRecord | undefined> {
  const cached = await getItem(oembedCacheKey(urlSha256), CachedSchema);
  // DynamoDB deletes expired items only eventually (and DynamoDB Local never): the expiry is checked here too.
  return cached && cached.expires_at_epoch > nowEpoch ? cached.record : undefined;
}

export async function cacheOembed(
  urlSha256: string,
  record: OembedRecord,
  expiresAtEpoch: number,
): Promise<void> {
  await transactWrite([
    putAction({ ...oembedCacheKey(urlSha256), entity: 'oembed', record, expires_at_epoch: expiresAtEpoch }),
  ]);
}
