import type { Caller } from '../auth/index.ts';
import { findUserById } from '../users/index.ts';
import { filterVisibleMedia } from './media-attachments.ts';
import { mediaNotFound } from './media-errors.ts';
import { toMedia } from './media-mapper.ts';
import { withServedUrls } from './media-urls.ts';
import { findMediaItem } from './media-write-repository.ts';

/**
 * `GET /media/{id}`: an active item with its uploader, for a caller who may see it (media-attachments.ts, the rule
 * of the member media list): anyone else gets 404 `media_not_found`, as for an unknown id, so neither the file nor
 * its existence leaks (issue 21, item 1). Pending uploads do not exist for readers.
 */
export async function getMedia(caller: Caller, mediaId: number) {
  const item = await findMediaItem(mediaId);
  if (item?.status !== 'active') throw mediaNotFound();
  const [visible] = await filterVisibleMedia(caller, [item]);
  if (!visible) throw mediaNotFound();
  const [user, served] = await Promise.all([findUserById(item.user_id), withServedUrls(item)]);
  const uploader = {
    id: item.user_id,
    display_name: user?.display_name ?? '',
    avatar: user?.avatar ?? '',
  };
  return { data: toMedia(served, uploader) };
}
