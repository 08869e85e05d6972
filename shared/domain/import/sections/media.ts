import {
  activeMediaWrites,
  contentScope,
  findObjectScopes,
  type MediaItem,
  type MediaScope,
  PUBLIC_SCOPE,
  spaceScope,
  UPLOADER_SCOPE,
} from '../../media/index.ts';
import { ImportError, itemName } from '../import-error.ts';
import type { RefKind } from '../reference-scope.ts';
import { defineSection } from './section.ts';

/** What a string `object_id` names, by `object_source`: a feed, comment or space of the file, or a user. */
const OBJECT_KINDS: Record<string, RefKind> = {
  feed: 'feed',
  comment: 'comment',
  space: 'space',
  profile: 'user',
};

/**
 * `media`: records of files already stored elsewhere (the upload path of the media domain makes real ones), laid
 * out by `activeMediaWrites` (active, so listed in the uploader's three media partitions) and counted on the
 * uploader's stats in the same unit, exactly as an upload's completion counts them. No object is in the
 * bucket for them (`s3_key` empty); `file_url` is what the file gives, or empty. Each takes the visibility of what
 * it is attached to (media-scope.ts): an object of the file as built, an existing one as `prepare` read it.
 */
export const mediaSection = defineSection({
  name: 'media',

  resolve(media, scope) {
    media.forEach((record, i) => {
      const where = itemName('media', i, record.ref);
      scope.user(record.user, `${where}: user`);
      if (typeof record.object_id !== 'string') return;
      const kind = record.object_source === null ? undefined : OBJECT_KINDS[record.object_source];
      if (kind === undefined) throw new ImportError(`${where}: object_id: a ref needs an object_source`);
      if (kind === 'user') scope.user(record.object_id, `${where}: object_id`);
      else scope.require(kind, record.object_id, `${where}: object_id`, record.object_source ?? kind);
    });
  },

  ids: (media) => (media.length > 0 ? { media: media.length } : {}),

  /** The scopes of the existing objects named by id (an id no object has gives an `uploader` item). */
  prepare(media) {
    const idsOf = (source: string) =>
      media.flatMap((record) =>
        record.object_source === source && typeof record.object_id === 'number' ? [record.object_id] : [],
      );
    return findObjectScopes({ feed: idsOf('feed'), comment: idsOf('comment'), space: idsOf('space') });
  },

  build(media, context, existing) {
    const scopeOf = (source: string | null, objectId: number | null, isRef: boolean): MediaScope => {
      if (source === null || objectId === null) return UPLOADER_SCOPE;
      if (source === 'profile') return PUBLIC_SCOPE;
      if (isRef) {
        const built =
          source === 'feed'
            ? context.posts.get(objectId)
            : source === 'comment'
              ? context.comments.get(objectId)
              : undefined;
        if (built) return contentScope(built);
        const space = source === 'space' ? context.spaces.get(objectId) : undefined;
        return space ? spaceScope(space) : UPLOADER_SCOPE;
      }
      const found = existing?.[source as 'feed' | 'comment' | 'space']?.get(objectId);
      return found ?? UPLOADER_SCOPE;
    };
    const output: Record<string, number> = {};
    media.forEach((record, i) => {
      const id = context.takeId('media');
      const createdAt = record.created_at ?? context.now;
      const objectId = record.object_id;
      const resolvedObjectId =
        typeof objectId !== 'string'
          ? objectId
          : record.object_source === 'profile'
            ? context.userId(objectId)
            : context.idOf(OBJECT_KINDS[record.object_source ?? ''] as RefKind, objectId);
      const item: MediaItem = {
        id,
        user_id: context.userId(record.user),
        file_name: record.file_name,
        file_type: record.file_type,
        file_size: record.file_size,
        s3_key: '',
        thumbnail_key: null,
        file_url: record.file_url,
        thumbnail_url: importedThumbnailUrl(record),
        width: null,
        height: null,
        object_source: record.object_source,
        object_id: resolvedObjectId,
        ...scopeOf(record.object_source, resolvedObjectId, typeof objectId === 'string'),
        status: 'active',
        created_at: createdAt,
        updated_at: createdAt,
      };
      const writes = activeMediaWrites(item);
      context.plan.unit(
        itemName('media', i, record.ref),
        [writes.item],
        writes.aggregates.map(({ key, deltas }) => ({ key, deltas })),
      );
      if (record.ref !== undefined) output[record.ref] = id;
    });
    return output;
  },
});

/**
 * The contract gives images and videos a `thumbnail_url`. An imported record names files stored elsewhere, so no
 * thumbnail is made: its own `thumbnail_url` when the file gives one, else for an image the image's own URL (a
 * client scales it), else null (a video without one, any other file, or no URL at all).
 */
function importedThumbnailUrl(record: { file_type: string; file_url: string; thumbnail_url: string }) {
  if (record.thumbnail_url !== '') return record.thumbnail_url;
  if (record.file_type.startsWith('image/') && record.file_url !== '') return record.file_url;
  return null;
}
