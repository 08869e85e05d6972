import { type ItemKey, indexPartition, type Partition } from '../partition.ts';

/**
 * One item per media id. A pending (presigned) upload is this item with `status: 'pending'`, `expires_at_epoch`
 * (TTL, 24 h) and no index entries, so lists never see it; completion adds the entries and removes the TTL.
 */
export const mediaKey = (mediaId: number): ItemKey => ({ pk: `MEDIA#${mediaId}`, sk: 'MEDIA' });
/** GSI1: active media of an uploader, newest first. */
export const uploaderMedia = (userId: number): Partition => indexPartition('GSI1', `USER#${userId}#MEDIA`);
/** GSI2: active media of an uploader attached to one object source (`feed`, `comment`, `profile`, `space`). */
export const uploaderMediaBySource = (userId: number, objectSource: string): Partition =>
  indexPartition('GSI2', `USER#${userId}#MEDIA#SOURCE#${objectSource}`);
/** GSI3: active media of an uploader with one MIME type, newest first. */
export const uploaderMediaByType = (userId: number, fileType: string): Partition =>
  indexPartition('GSI3', `USER#${userId}#MEDIA#TYPE#${fileType.toLowerCase()}`);

/** oEmbed response cache, keyed by the SHA-256 of the normalised URL, with a TTL. */
export const oembedCacheKey = (urlSha256: string): ItemKey => ({ pk: `OEMBED#${urlSha256}`, sk: 'OEMBED' });

/**
 * The uploader's sliding-window upload limiter: the count of uploads so far and the times of the last ten, one
 * slot each (`slot_<n mod 10>`), replaced under a condition on the count so concurrent Lambdas never both pass.
 */
export const uploadRateKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'MEDIA_RATE' });
