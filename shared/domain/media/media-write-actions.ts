import {
  type MediaAggregate,
  type MediaItem,
  mediaAggregates,
  type StoredMedia,
  storedMedia,
} from './media-item.ts';

/**
 * What an active media item created whole writes (an import's or a migration's copied image): the item, ready to
 * put as it is (listed in its uploader's media), and the aggregate moves it makes (its uploader's media counters,
 * as an upload's completion counts them). Other domains write media only through this; they never build the item.
 */
export interface ActiveMediaWrites {
  readonly item: StoredMedia;
  readonly aggregates: readonly MediaAggregate[];
}

export const activeMediaWrites = (item: MediaItem): ActiveMediaWrites => ({
  item: storedMedia(item),
  aggregates: mediaAggregates(item),
});
