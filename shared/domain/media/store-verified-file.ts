import { publicObjectUrl, writeObject } from '../../integrations/media-bucket.ts';
import type { MediaType } from '../../vocabulary/media.ts';
import { invalidFileType, uploadFailed } from './media-errors.ts';
import { PRIVATE_PREFIX, PUBLIC_PREFIX, servedObjectKeys } from './media-objects.ts';
import { isImage, processImage } from './process-image.ts';

export interface StoredFile {
  readonly file_type: MediaType;
  readonly file_size: number;
  readonly s3_key: string;
  readonly file_url: string;
  readonly thumbnail_key: string | null;
  readonly thumbnail_url: string | null;
  readonly width: number | null;
  readonly height: number | null;
}

/**
 * Writes a verified file where it is served: images re-encoded without metadata plus a thumbnail, other files as
 * they are. `file_size` is what is served (the re-encoded size for images). `keyToken` pins the object folder
 * (see `servedObjectKeys`); without it the folder is random.
 */
export async function storeVerifiedFile(
  mediaId: number,
  bytes: Uint8Array,
  type: MediaType,
  keyToken?: string,
  options: { private?: boolean } = {},
): Promise<StoredFile> {
  const keys = servedObjectKeys(mediaId, type, keyToken, options.private ? PRIVATE_PREFIX : PUBLIC_PREFIX);
  if (!isImage(type)) {
    await storeObjects([[keys.file, bytes, type]]);
    return {
      file_type: type,
      file_size: bytes.length,
      s3_key: keys.file,
      file_url: publicObjectUrl(keys.file),
      thumbnail_key: null,
      thumbnail_url: null,
      width: null,
      height: null,
    };
  }
  // Magic bytes can be right on a file whose body is broken: that is a bad file, not a server fault.
  const image = await processImage(bytes, type).catch(() => {
    throw invalidFileType('The image could not be decoded.');
  });
  await storeObjects([
    [keys.file, image.bytes, type],
    [keys.thumbnail, image.thumbnail, 'image/webp'],
  ]);
  return {
    file_type: type,
    file_size: image.bytes.length,
    s3_key: keys.file,
    file_url: publicObjectUrl(keys.file),
    thumbnail_key: keys.thumbnail,
    thumbnail_url: publicObjectUrl(keys.thumbnail),
    width: image.width,
    height: image.height,
  };
}

/** Storage failures are the contract's 500 `upload_failed` (nothing is recorded; the client may retry). */
async function storeObjects(
  objects: readonly [key: string, bytes: Uint8Array, type: string][],
): Promise<void> {
  try {
    await Promise.all(objects.map(([key, bytes, type]) => writeObject(key, bytes, type)));
  } catch (error) {
    throw uploadFailed(error);
  }
}
