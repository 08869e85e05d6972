import { IdTaken, newId, withFreshId } from '../../db/ids.ts';
import { presignPost } from '../../integrations/media-bucket.ts';
import {
  MEDIA_FILE_NAME_MAX_LENGTH,
  MEDIA_MAX_BYTES,
  type MediaObjectSource,
} from '../../vocabulary/media.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { resolveAttachment } from './media-attachments.ts';
import { emptyFile, missingFile, tooManyUploads } from './media-errors.ts';
import type { MediaItem } from './media-item.ts';
import { toUploadedMedia } from './media-mapper.ts';
import { withServedUrls } from './media-urls.ts';
import { pendingObjectKey } from './media-objects.ts';
import { activateMedia, putPendingMedia } from './media-write-repository.ts';
import { storeVerifiedFile } from './store-verified-file.ts';
import { takeUploadSlot } from './upload-rate-repository.ts';
import { checkDeclaredType, checkSize, verifyFile } from './verify-file.ts';
import { AppError } from '../../errors/app-error.ts';

/** How long a presigned POST may be used; the pending item itself lives 24 hours (decisions.md). */
const PRESIGN_SECONDS = 15 * 60;
export const PENDING_LIFETIME_SECONDS = 24 * 60 * 60;

export interface UploadRequest {
  readonly file?: { file_name: string; content_type: string; bytes: Uint8Array } | undefined;
  readonly file_name?: string | undefined;
  readonly file_type?: string | undefined;
  readonly file_size?: number | undefined;
  readonly object_source?: MediaObjectSource | undefined;
  readonly object_id?: number | undefined;
}

/** The name as shown: no directories (`C:\x\a.png`, `../a.png`), no control characters, bounded. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, MEDIA_FILE_NAME_MAX_LENGTH);
}

/**
 * `POST /feeds/media-upload`: a multipart file is verified and stored at once; a JSON request gets a presigned
 * POST and a pending item that `completeUpload` verifies. Both count against the caller's upload rate. The object
 * named by `object_source`/`object_id` must exist and be visible to the caller (media-attachments.ts).
 */
export async function createUpload(caller: Caller, request: UploadRequest) {
  if (request.file) return uploadFile(caller, request, request.file);
  const missing = (['file_name', 'file_type', 'file_size'] as const).filter(
    (name) => request[name] === undefined,
  );
  if (missing.length === 3) throw missingFile();
  if (missing.length > 0) {
    throw new AppError('rest_missing_callback_param', 400, `Missing parameter(s): ${missing.join(', ')}`, {
      params: missing,
    });
  }
  return presignUpload(
    caller,
    request as Required<Pick<UploadRequest, 'file_name' | 'file_type' | 'file_size'>> & UploadRequest,
  );
}

async function uploadFile(caller: Caller, request: UploadRequest, file: NonNullable<UploadRequest['file']>) {
  if (file.bytes.length === 0) throw emptyFile();
  checkSize(file.bytes.length);
  const scope = await resolveAttachment(caller, request.object_source ?? null, request.object_id ?? null);
  await takeSlotOrRefuse(caller.id);
  const type = await verifyFile(file.bytes, file.content_type);
  // The objects go in a folder named by the first id drawn (with an unguessable token of this request's own); the
  // item records their keys, so if that id turns out taken (the item's guard) the item takes a fresh id and keeps
  // the objects where they are: nothing is stored twice and nothing needs deleting.
  const firstId = newId();
  const stored = await storeVerifiedFile(firstId, file.bytes, type, undefined, {
    private: scope.visibility === 'members',
  });
  let draws = 0;
  const item = await withFreshId(
    async (id) => {
      const now = nowIso();
      const item: MediaItem = {
        id,
        user_id: caller.id,
        file_name: cleanFileName(file.file_name),
        ...stored,
        object_source: request.object_source ?? null,
        object_id: request.object_id ?? null,
        ...scope,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      // The creating put's only condition is the id guard: false means the id was drawn twice.
      if (await activateMedia(item, 'none')) return item;
      throw new IdTaken(id);
    },
    () => (draws++ === 0 ? firstId : newId()),
  );
  return { message: 'File uploaded successfully.', data: toUploadedMedia(await withServedUrls(item)) };
}

async function presignUpload(
  caller: Caller,
  request: UploadRequest & { file_name: string; file_type: string; file_size: number },
) {
  checkSize(request.file_size);
  const type = checkDeclaredType(request.file_type);
  // The scope is decided now; completing the upload later keeps it (the object was checked when it was named).
  const scope = await resolveAttachment(caller, request.object_source ?? null, request.object_id ?? null);
  await takeSlotOrRefuse(caller.id);
  // Nothing is stored before the pending item: a drawn id that is already taken simply draws another.
  const { id, post } = await withFreshId(async (id) => {
    const key = pendingObjectKey(id);
    const post = await presignPost({
      key,
      contentType: type,
      maxBytes: MEDIA_MAX_BYTES,
      expiresSeconds: PRESIGN_SECONDS,
    });
    const now = nowIso();
    await putPendingMedia(
      {
        id,
        user_id: caller.id,
        file_name: cleanFileName(request.file_name),
        file_type: type,
        file_size: request.file_size,
        s3_key: key,
        thumbnail_key: null,
        file_url: '',
        thumbnail_url: null,
        width: null,
        height: null,
        object_source: request.object_source ?? null,
        object_id: request.object_id ?? null,
        ...scope,
        status: 'pending',
        created_at: now,
        updated_at: now,
      },
      Math.floor(Date.now() / 1000) + PENDING_LIFETIME_SECONDS,
    );
    return { id, post };
  });
  const expiresAt = new Date(Date.now() + PRESIGN_SECONDS * 1000).toISOString().slice(0, 19);
  return {
    message: 'Upload URL created: post the file there, then complete the upload.',
    data: {
      id,
      status: 'pending' as const,
      upload: { url: post.url, fields: post.fields, expires_at: expiresAt },
    },
  };
}

/** 429 with `Retry-After`: the seconds until the caller's oldest upload of the window leaves it. */
async function takeSlotOrRefuse(userId: number): Promise<void> {
  const slot = await takeUploadSlot(userId);
  if (slot !== true) throw tooManyUploads(Math.max(1, Math.ceil(slot.retryAfterMs / 1000)));
}
