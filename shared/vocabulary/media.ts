/** Media vocabularies and limits (contract "Media", decisions.md "Media"). */
export const MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'application/pdf',
  'application/zip',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const MEDIA_OBJECT_SOURCES = ['feed', 'comment', 'profile', 'space'] as const;
export type MediaObjectSource = (typeof MEDIA_OBJECT_SOURCES)[number];

/** `pending`: a presigned upload not yet completed (expires); `active`: verified and listed. */
export const MEDIA_STATUSES = ['pending', 'active'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** 10 MB, as the contract's file-too-large error states it. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
export const MEDIA_FILE_NAME_MAX_LENGTH = 255;
