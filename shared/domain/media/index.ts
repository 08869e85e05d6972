/** The media domain's public surface: what other domains may use (README, import rules). */
export * from './media-item.ts';
export { type MediaListItem, toMediaListItem } from './media-list-mapper.ts';
export {
  countMemberMedia,
  findMediaCounters,
  type MediaListFilter,
  queryMemberMediaPage,
} from './media-repository.ts';
export { type CopiedImage, storeCopiedImage } from './store-copied-image.ts';
