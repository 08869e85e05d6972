import type { CatalogueRoute } from './route.ts';

/** Media (contract "Media", decisions.md "Media"). Only the functions that store or verify files touch the bucket. */
export const MEDIA_ROUTES = [
  {
    operationId: 'uploadMedia',
    method: 'POST',
    path: '/feeds/media-upload',
    access: 'authenticated',
    entry: 'functions/http/media/upload-media.ts',
    // Signs presigned POSTs to `pending/<id>`; a multipart file is verified and written under `media/` at once.
    grants: { table: 'readWrite', bucket: { write: ['pending/', 'media/'] } },
    // Image re-encoding is CPU-bound; more memory is more CPU on Lambda.
    memoryMb: 1536,
    nativeModules: ['sharp'],
  },
  {
    operationId: 'completeMediaUpload',
    method: 'POST',
    path: '/media/{id}/complete',
    access: 'owner',
    entry: 'functions/http/media/complete-media-upload.ts',
    // Reads the upload, writes the verified copy, then deletes the upload (or the copy, when recording it fails).
    grants: {
      table: 'readWrite',
      bucket: { read: ['pending/'], write: ['media/'], delete: ['pending/', 'media/'] },
    },
    memoryMb: 1536,
    nativeModules: ['sharp'],
  },
  {
    operationId: 'getMedia',
    method: 'GET',
    path: '/media/{id}',
    access: 'authenticated',
    entry: 'functions/http/media/get-media.ts',
    grants: { table: 'read' },
  },
  {
    operationId: 'deleteMedia',
    method: 'DELETE',
    path: '/media/{id}',
    access: 'owner',
    entry: 'functions/http/media/delete-media.ts',
    grants: { table: 'readWrite', bucket: { delete: ['pending/', 'media/'] } },
  },
  {
    operationId: 'getOembed',
    method: 'GET',
    path: '/feeds/oembed',
    access: 'authenticated',
    entry: 'functions/http/media/get-oembed.ts',
    grants: { table: 'readWrite' },
    timeoutSeconds: 10,
  },
] as const satisfies readonly CatalogueRoute[];
