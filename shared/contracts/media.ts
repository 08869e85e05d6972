import * as v from 'valibot';
import {
  MEDIA_FILE_NAME_MAX_LENGTH,
  MEDIA_MAX_BYTES,
  MEDIA_OBJECT_SOURCES,
  MEDIA_TYPES,
} from '../vocabulary/media.ts';
import { idParam, integer, isoDateTime, messageResponse } from './fields.ts';
import { OEMBED_RECORD_FIELDS } from '../vocabulary/oembed.ts';
import { defineOperation, errorOutcome } from './operation.ts';
import { documentedAs, named } from './openapi-metadata.ts';

const TAGS = ['Media'];
const NOT_FOUND = errorOutcome(404, 'media_not_found', 'No media has this id.');
const TOO_LARGE = errorOutcome(
  400,
  'file_too_large',
  'The file is larger than 10 MB; `data.max_size` is `"10MB"`, `data.file_size` the size sent.',
);
const BAD_TYPE = errorOutcome(
  400,
  'invalid_file_type',
  "The file's real type (read from its content) is not allowed, or differs from the declared one; " +
    '`data.allowed_types` lists the allowed MIME types.',
);
const INVALID = errorOutcome(400, 'rest_invalid_param', 'A field is malformed, or the file is empty.');

const positiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1, 'must be a positive integer'));
/** A form field arrives as text; the JSON body sends a number. */
const objectId = v.pipe(
  v.union(
    [
      positiveInteger,
      v.pipe(
        v.string(),
        v.regex(/^\d{1,16}$/, 'must be a positive integer'),
        v.transform(Number),
        v.minValue(1, 'must be a positive integer'),
        v.maxValue(Number.MAX_SAFE_INTEGER, 'must be a positive integer'),
      ),
    ],
    'must be a positive integer',
  ),
  documentedAs({ type: 'integer', minimum: 1, description: 'Sent as text in a multipart form.' }),
);

/** A file part of a multipart form, as shared/http/multipart.ts hands it over. */
const uploadedFile = v.pipe(
  v.object({
    file_name: v.string(),
    content_type: v.string(),
    bytes: v.instance(Uint8Array),
  }),
  documentedAs({ type: 'string', format: 'binary', description: 'The file (multipart uploads).' }),
);

/** What a stored file is: its type and size, its pixel size and thumbnail (images; null otherwise). */
const storedFileEntries = {
  file_type: v.picklist(MEDIA_TYPES),
  file_size: integer(),
  width: v.nullable(integer()),
  height: v.nullable(integer()),
  thumbnail_url: v.nullable(v.string()),
};

/** The upload answer's `data` (contract "Upload"). */
export const uploadedMediaSchema = v.pipe(
  v.object({
    id: integer(),
    /** `active`: stored and verified. Tells this answer from a pending presigned upload (`status: pending`). */
    status: v.literal('active'),
    file_name: v.string(),
    file_url: v.string(),
    ...storedFileEntries,
    created_at: isoDateTime(),
  }),
  named('UploadedMedia'),
);

const pendingUploadSchema = v.pipe(
  v.object({
    id: integer(),
    status: v.literal('pending'),
    upload: v.object({
      url: v.string(),
      fields: v.record(v.string(), v.string()),
      expires_at: isoDateTime(),
    }),
  }),
  named('PendingUpload'),
);

export const uploadMedia = defineOperation({
  operationId: 'uploadMedia',
  summary: 'Upload a file (multipart), or ask for a presigned upload (JSON)',
  description:
    'Two paths. **Multipart** (`file`, optional `object_source`, `object_id`) for files that fit the gateway ' +
    '(about 4.5 MB in the cloud): 201 with the stored file. **Presigned** (a JSON body with `file_name`, ' +
    '`file_type`, `file_size`, optional `object_source`, `object_id`): 201 with `data.status` `pending` and ' +
    '`data.upload`; post the file to `upload.url` with every field of `upload.fields` (the file last), then call ' +
    '`POST /media/{id}/complete`. The real type is read from the content and must be allowed and match the ' +
    'declared one; images are re-encoded without metadata (EXIF, GPS) and get a thumbnail. More than 10 uploads ' +
    'a minute per user: 429, with `Retry-After`. The two 201 answers differ by `data.status`: `active` (stored) ' +
    'or `pending` (post the file, then complete).',
  tags: TAGS,
  bodyKind: 'multipart',
  body: v.strictObject({
    file: v.optional(uploadedFile),
    file_name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MEDIA_FILE_NAME_MAX_LENGTH))),
    file_type: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
    file_size: v.optional(positiveInteger),
    object_source: v.optional(v.picklist(MEDIA_OBJECT_SOURCES)),
    object_id: v.optional(objectId),
  }),
  // A discriminated union on `status` (`active` | `pending`): generated clients narrow on it.
  response: v.object({
    message: v.string(),
    data: v.variant('status', [uploadedMediaSchema, pendingUploadSchema]),
  }),
  successStatus: 201,
  errors: [
    INVALID,
    {
      status: 400,
      code: 'rest_missing_callback_param',
      description: '`file` is missing (or, in JSON, a field).',
    },
    TOO_LARGE,
    BAD_TYPE,
    { status: 429, code: 'rest_too_many_requests', description: 'More than 10 uploads in a minute.' },
    { status: 500, code: 'upload_failed', description: 'The file could not be stored.' },
  ],
});

export const completeMediaUpload = defineOperation({
  operationId: 'completeMediaUpload',
  summary: 'Verify a presigned upload and make it active',
  description:
    `Reads the stored object: at most ${MEDIA_MAX_BYTES} bytes, its real type allowed and equal to the declared ` +
    'one. A refused object is deleted before the answer. Completing an active upload again answers the same data.',
  tags: TAGS,
  params: v.object({ id: idParam() }),
  response: v.object({ message: v.string(), data: uploadedMediaSchema }),
  errors: [
    NOT_FOUND,
    TOO_LARGE,
    BAD_TYPE,
    { status: 400, code: 'upload_missing', description: 'Nothing was posted to the upload URL yet.' },
    { status: 403, code: 'rest_forbidden', description: 'The upload belongs to another user.' },
  ],
});

export const mediaSchema = v.pipe(
  v.object({
    id: integer(),
    user_id: integer(),
    file_name: v.string(),
    file_path: v.string(),
    file_url: v.string(),
    ...storedFileEntries,
    object_source: v.nullable(v.picklist(MEDIA_OBJECT_SOURCES)),
    object_id: v.nullable(integer()),
    status: v.picklist(['active', 'deleted']),
    created_at: isoDateTime(),
    uploader: v.object({ id: integer(), display_name: v.string(), avatar: v.string() }),
  }),
  named('Media'),
);

export const getMedia = defineOperation({
  operationId: 'getMedia',
  summary: 'One media item, with its uploader',
  tags: TAGS,
  params: v.object({ id: idParam() }),
  response: v.object({ data: mediaSchema }),
  errors: [NOT_FOUND],
});

export const deleteMedia = defineOperation({
  operationId: 'deleteMedia',
  summary: 'Delete a media item and every stored object of it',
  description: 'The uploader or a community moderator. The objects are removed before the answer.',
  tags: TAGS,
  params: v.object({ id: idParam() }),
  response: messageResponse(),
  errors: [
    NOT_FOUND,
    { status: 403, code: 'rest_forbidden', description: 'Not the uploader nor a moderator.' },
  ],
});

export const oembedSchema = v.pipe(v.object(OEMBED_RECORD_FIELDS), named('OEmbed'));

export const getOembed = defineOperation({
  operationId: 'getOembed',
  summary: 'The oEmbed record of a URL from a known provider',
  description:
    'Known providers only (the maintained oembed.com list); `http`/`https` only; private, loopback, link-local, ' +
    'unique-local and metadata addresses are refused (checked on the resolved address and on every redirect); 5 s ' +
    'and 300 KB caps. Records are cached.',
  tags: TAGS,
  query: v.object({ url: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)) }),
  response: v.object({ data: oembedSchema }),
  errors: [
    {
      status: 404,
      code: 'oembed_not_found',
      description: 'No known provider, refused address, or fetch failed.',
    },
  ],
});
