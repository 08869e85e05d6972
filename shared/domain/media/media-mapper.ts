import { toIsoDateTime } from '../dates.ts';
import type { MediaItem } from './media-item.ts';

/** Responses built from stored items: storage keys other than the served path never reach a client. */

/** The file as every media response shows it. */
const fileOf = (item: MediaItem) => ({
  file_name: item.file_name,
  file_url: item.file_url,
  file_type: item.file_type,
  file_size: item.file_size,
  width: item.width,
  height: item.height,
  thumbnail_url: item.thumbnail_url,
});

export function toUploadedMedia(item: MediaItem) {
  return {
    id: item.id,
    status: 'active' as const,
    ...fileOf(item),
    created_at: toIsoDateTime(item.created_at),
  };
}

export interface Uploader {
  readonly id: number;
  readonly display_name: string;
  readonly avatar: string;
}

export function toMedia(item: MediaItem, uploader: Uploader) {
  return {
    id: item.id,
    user_id: item.user_id,
    ...fileOf(item),
    file_path: item.s3_key,
    object_source: item.object_source,
    object_id: item.object_id,
    status: 'active' as const,
    created_at: toIsoDateTime(item.created_at),
    uploader,
  };
}
