import { AppError, notFound } from '../../errors/app-error.ts';
import { logger } from '../../observability/logger.ts';
import { MEDIA_MAX_BYTES, MEDIA_TYPES } from '../../vocabulary/media.ts';

/** Media errors (contract "Errors", decisions.md "Media"). */
export const mediaNotFound = () => notFound('media_not_found', 'Media not found.');

/** Sizes in the style of the contract's `max_size` (`"10MB"`): megabytes with at most one decimal. */
export function megabytes(bytes: number): string {
  const value = Math.round((bytes / (1024 * 1024)) * 10) / 10;
  return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)}MB`;
}

export const fileTooLarge = (bytes: number) =>
  new AppError('file_too_large', 400, 'The file is larger than the 10 MB limit.', {
    max_size: megabytes(MEDIA_MAX_BYTES),
    file_size: megabytes(bytes),
  });

export const invalidFileType = (message = 'This file type is not allowed.') =>
  new AppError('invalid_file_type', 400, message, { allowed_types: [...MEDIA_TYPES] });

export const emptyFile = () =>
  new AppError('rest_invalid_param', 400, 'Invalid parameter(s): file', {
    params: { file: 'must not be empty' },
  });

export const missingFile = () =>
  new AppError('rest_missing_callback_param', 400, 'Missing parameter(s): file', { params: ['file'] });

export const uploadMissing = () =>
  new AppError(
    'upload_missing',
    400,
    'Nothing was uploaded for this media yet: post the file to its upload URL.',
  );

export const tooManyUploads = (retryAfterSeconds: number) =>
  new AppError(
    'rest_too_many_requests',
    429,
    'Too many uploads: at most 10 a minute. Try again shortly.',
    {},
    { retryAfterSeconds },
  );

/** The cause is logged here (the factory logs only unexpected errors), never echoed. */
export const uploadFailed = (cause: unknown) => {
  logger.error('media storage failed', { error: cause });
  return new AppError('upload_failed', 500, 'The file could not be stored. Try again.');
};
