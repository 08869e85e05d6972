import { toIsoDateTime } from '../dates.ts';
import type { MediaType } from '../../vocabulary/media.ts';
import type { MediaItem } from './media-item.ts';

/** An item of a member's media list (community-api.md, `GET /profile/{username}/media`). */
export interface MediaListItem {
  id: number;
  file_name: string;
  file_url: string;
  file_type: MediaType;
  thumbnail_url: string | null;
  created_at: string;
}

export const toMediaListItem = (item: MediaItem): MediaListItem => ({
  id: item.id,
  file_name: item.file_name,
  file_url: item.file_url,
  file_type: item.file_type,
  thumbnail_url: item.thumbnail_url,
  created_at: toIsoDateTime(item.created_at),
});
