import type { CatalogueRoute } from './route.ts';

/** Media (contract "Media", decisions.md "Media"). Only the functions that store or verify files touch the bucket. */
export const MEDIA_ROUTES = [
  {
    operationId: 'uploadMedia',
    method: 'POST',
    path: '/feeds/media-upload',
    access: 'authenticated',
    // Signs presigned POSTs to `pending/<id>`; a multipart file is verified and written under `media/` at once
    // (`private/` for media of private and secret spaces, whose answer carries signed GET URLs).
    grants: { table: 'readWrite', bucket: { read: ['private/'], write: ['pending/', 'media/', 'private/'] } },
    // Image re-encoding is CPU-bound; more memory is more CPU on Lambda.
    memoryMb: 1536,
    nativeModules: ['sharp'],
  },
  {
    operationId: 'completeMediaUpload',
    method: 'POST',
    path: '/media/{id}/complete',
    access: 'owner',
    // Reads the upload, writes the verified copy, then deletes the upload (or the copy, when recording it fails);
    // signs GET URLs of `private/` copies (media of private and secret spaces).
    grants: {
      table: 'readWrite',
      bucket: {
        read: ['pending/', 'private/'],
        write: ['media/', 'private/'],
        delete: ['pending/', 'media/', 'private/'],
      },
    },
    memoryMb: 1536,
    nativeModules: ['sharp'],
  },
  {
    operationId: 'getMedia',
    method: 'GET',
    path: '/media/{id}',
    access: 'authenticated',
    // Signs short-lived GET URLs of `private/` files (media of private and secret spaces) for allowed callers.
    grants: { table: 'read', bucket: { read: ['private/'] } },
  },
  {
    operationId: 'deleteMedia',
    method: 'DELETE',
    path: '/media/{id}',
    access: 'owner',
    grants: { table: 'readWrite', bucket: { delete: ['pending/', 'media/', 'private/'] } },
  },
  {
    operationId: 'getOembed',
    method: 'GET',
    path: '/feeds/oembed',
    access: 'authenticated',
    grants: { table: 'readWrite' },
    timeoutSeconds: 10,
  },
] as const satisfies readonly CatalogueRoute[];
