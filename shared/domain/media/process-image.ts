import type { MediaType } from '../../vocabulary/media.ts';

/** Longest side of a thumbnail, in pixels. */
const THUMBNAIL_SIZE = 320;
/** Refuse decompression bombs: more pixels than a 10 MB upload of a real photo carries. */
const MAX_INPUT_PIXELS = 100_000_000;

export interface ProcessedImage {
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly thumbnail: Uint8Array;
}

const IMAGE_TYPES = new Set<MediaType>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
export const isImage = (type: MediaType): boolean => IMAGE_TYPES.has(type);

/**
 * Re-encodes an image in its own format. sharp writes no metadata unless asked, so EXIF (GPS, camera), XMP and
 * IPTC are dropped; the EXIF orientation is applied first so the picture still stands the right way up. Animated
 * GIF and WebP keep their frames. Answers the served bytes, the displayed dimensions and a WebP thumbnail.
 */
export async function processImage(bytes: Uint8Array, type: MediaType): Promise<ProcessedImage> {
  // Loaded on first use: libvips costs tens of milliseconds, which a cold start for a PDF or a presign need not pay.
  const { default: sharp } = await import('sharp');
  const animated = type === 'image/gif' || type === 'image/webp';
  const source = () => sharp(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  const encoded = source();
  if (type === 'image/jpeg') encoded.jpeg({ quality: 88, mozjpeg: true });
  else if (type === 'image/png') encoded.png();
  else if (type === 'image/gif') encoded.gif();
  else encoded.webp();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  // For animations, `info.height` is the whole strip of frames; `pageHeight` is one frame.
  const height = info.pageHeight ?? info.height;
  const thumbnail = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
  return { bytes: new Uint8Array(data), width: info.width, height, thumbnail: new Uint8Array(thumbnail) };
}
