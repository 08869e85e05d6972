/** The media domain's public surface: what other domains may use (README, import rules). */
export * from './media-item.ts';
export { type MediaListItem, toMediaListItem } from './media-list-mapper.ts';
export {
  countMemberMedia,
  findMediaCounters,
  type MediaListFilter,
  MAX_MEDIA_FILTER_SPACES,
  queryMemberMediaPage,
} from './media-repository.ts';
export { type CopiedImage, storeCopiedImage } from './store-copied-image.ts';
export { filterVisibleMedia, findObjectScopes } from './media-attachments.ts';
export {
  contentScope,
  type MediaScope,
  type MediaVisibility,
  PUBLIC_SCOPE,
  scopeCounterSuffix,
  spaceScope,
  UPLOADER_SCOPE,
} from './media-scope.ts';
export { withServedUrls } from './media-urls.ts';
