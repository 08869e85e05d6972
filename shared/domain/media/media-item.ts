import * as v from 'valibot';
import { mediaKey, uploaderMedia, uploaderMediaBySource, uploaderMediaByType } from '../../db/keys/media.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import { type ItemKey, indexEntry } from '../../db/partition.ts';
import { MEDIA_OBJECT_SOURCES, MEDIA_STATUSES, MEDIA_TYPES } from '../../vocabulary/media.ts';
import { MEDIA_VISIBILITIES, type MediaScope, scopeCounterSuffix } from './media-scope.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * A media item as stored (`MEDIA#<id>` / `MEDIA`). Storage keys (`s3_key`, `thumbnail_key`) stay server-side; the
 * URLs are what clients see. A pending upload carries `expires_at_epoch` (TTL) and no index entries.
 */
export const MediaItemSchema = v.object({
  id: integer,
  user_id: integer,
  file_name: v.string(),
  file_type: v.picklist(MEDIA_TYPES),
  file_size: integer,
  /** Object key of the served file in the media bucket. */
  s3_key: v.string(),
  /** Object key of the thumbnail, when there is one (images, videos). */
  thumbnail_key: v.nullable(v.string()),
  file_url: v.string(),
  thumbnail_url: v.nullable(v.string()),
  width: v.nullable(integer),
  height: v.nullable(integer),
  object_source: v.nullable(v.picklist(MEDIA_OBJECT_SOURCES)),
  object_id: v.nullable(integer),
  status: v.picklist(MEDIA_STATUSES),
  /**
   * Who may see the item besides its uploader and community moderators, decided from the attached object when it
   * was attached (media-scope.ts). Items stored before the field existed read as `uploader` (seen by no one else).
   */
  visibility: v.optional(v.picklist(MEDIA_VISIBILITIES), 'uploader'),
  /** The space whose members may see a `members` item; null otherwise. */
  visibility_space_id: v.optional(v.nullable(integer), null),
  /** UTC ISO timestamps. */
  created_at: v.string(),
  updated_at: v.string(),
});
export type MediaItem = v.InferOutput<typeof MediaItemSchema>;

/** A media item as written to the table: its key, index entries and fields. */
export type StoredMedia = ItemKey & MediaItem & Record<string, unknown>;

/**
 * Listed among the uploader's media (all, by object source, by type) only while active, so pending uploads never
 * appear in lists or counts. A pending item expires by TTL.
 */
export function storedMedia(item: MediaItem, options: { expiresAtEpoch?: number } = {}): StoredMedia {
  const sort = timeSort(item.created_at, item.id);
  const listed = item.status === 'active';
  return {
    ...mediaKey(item.id),
    entity: 'media',
    ...item,
    ...(listed ? indexEntry(uploaderMedia(item.user_id), sort) : {}),
    ...(listed && item.object_source !== null
      ? indexEntry(uploaderMediaBySource(item.user_id, item.object_source), sort)
      : {}),
    ...(listed ? indexEntry(uploaderMediaByType(item.user_id, item.file_type), sort) : {}),
    ...(options.expiresAtEpoch === undefined ? {} : { expires_at_epoch: options.expiresAtEpoch }),
  };
}

/**
 * The counters an active media item contributes to its uploader's stats (`userStatsKey`): `media_total`,
 * `media_type:<mime>`, `media_source:<source>` (everything, for the uploader and moderators), and for an item others
 * may see, the same split by its scope (`p`: everyone; `m<sid>`: members of the space): `media_scope:<s>`,
 * `media_scope_type:<mime>|<s>`, `media_scope_source:<source>|<s>`. The member media list's totals read them, so a
 * caller's total is the sum over the scopes it may see (issue 21, item 4), as the feed totals are.
 */
export function mediaCounts(
  item: Pick<MediaItem, 'file_type' | 'object_source'> & Partial<MediaScope>,
): Record<string, number> {
  const scope = scopeCounterSuffix({
    visibility: item.visibility ?? 'uploader',
    visibility_space_id: item.visibility_space_id ?? null,
  });
  return {
    media_total: 1,
    [`media_type:${item.file_type}`]: 1,
    ...(item.object_source === null ? {} : { [`media_source:${item.object_source}`]: 1 }),
    ...(scope === undefined
      ? {}
      : {
          [`media_scope:${scope}`]: 1,
          [`media_scope_type:${item.file_type}|${scope}`]: 1,
          ...(item.object_source === null
            ? {}
            : { [`media_scope_source:${item.object_source}|${scope}`]: 1 }),
        }),
  };
}

/** One aggregate item an active media item moves, as `feedAggregates` describes a feed's. */
export interface MediaAggregate {
  readonly key: ItemKey;
  readonly deltas: Readonly<Record<string, number>>;
  /** The attributes the aggregate item carries besides its counters (for writers that may create it). */
  readonly identity: Readonly<Record<string, unknown>>;
}

/** What an active media item contributes: `mediaCounts` on its uploader's stats item. */
export const mediaAggregates = (
  item: Pick<MediaItem, 'user_id' | 'file_type' | 'object_source'> & Partial<MediaScope>,
): MediaAggregate[] => [
  {
    key: userStatsKey(item.user_id),
    deltas: mediaCounts(item),
    identity: { entity: 'user_stats', user_id: item.user_id },
  },
];
