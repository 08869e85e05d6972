/** The media domain's public surface: what other domains may use (README, import rules). */
export type { MediaAggregate, MediaItem, StoredMedia } from './media-item.ts';
export { listMemberMedia, type MemberMediaInput, type MemberMediaPage } from './list-member-media.ts';
export { type ActiveMediaWrites, activeMediaWrites } from './media-write-actions.ts';
export { type MediaListItem, toMediaListItem } from './media-list-mapper.ts';
export { type CopiedImagePlan, planCopiedImage } from './copied-image-plan.ts';
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
