import type { CatalogueRoute } from './route.ts';

/** Media (contract "Media", decisions.md "Media"). Only the functions that store or verify files touch the bucket. */
export const MEDIA_ROUTES = [
  {
    operationId: 'uploadMedia',
    method: 'POST',
    path: '/feeds/media-upload',
    access: 'authenticated',
    entry: 'functions/http/media/upload-media.ts',
    grants: { table: 'readWrite', bucket: 'readWrite' },
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
    grants: { table: 'readWrite', bucket: 'readWrite' },
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
    grants: { table: 'readWrite', bucket: 'readWrite' },
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
