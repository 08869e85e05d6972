import type { Caller } from '../auth/index.ts';
import { findUserById } from '../users/index.ts';
import { mediaNotFound } from './media-errors.ts';
import { toMedia } from './media-mapper.ts';
import { findMediaItem } from './media-write-repository.ts';

/** `GET /media/{id}`: an active item with its uploader; pending uploads do not exist for readers. */
export async function getMedia(_caller: Caller, mediaId: number) {
  const item = await findMediaItem(mediaId);
  if (item?.status !== 'active') throw mediaNotFound();
  const user = await findUserById(item.user_id);
  const uploader = {
    id: item.user_id,
    display_name: user?.display_name ?? '',
    avatar: user?.avatar ?? '',
  };
  return { data: toMedia(item, uploader) };
}
