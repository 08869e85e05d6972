import type { MediaType } from '../../vocabulary/media.ts';

/**
 * The image type of a file from its magic bytes, for the four formats images are kept in (JPEG, PNG, GIF, WebP);
 * undefined for anything else. The same signatures `file-type` reads for these formats (JPEG-LS and animated PNG
 * are other types there, and here none), without its ~71 KB of detectors for every other format: the BuddyPress
 * migration's worker copies images only, and loads MySQL and sharp in the same cold start (issue 21, item 21).
 * Uploads, which accept videos, PDFs and archives too, keep `file-type` (verify-file.ts).
 */
export function imageTypeOf(bytes: Uint8Array): MediaType | undefined {
  const starts = (signature: readonly number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return bytes[3] === 0xf7 ? undefined : 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return isAnimatedPng(bytes) ? undefined : 'image/png';
  if (starts([0x47, 0x49, 0x46])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** An `acTL` chunk before the first `IDAT` makes a PNG an animated one. */
function isAnimatedPng(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (type === 'acTL') return true;
    if (type === 'IDAT') return false;
    offset += 12 + length; // length, type, data, CRC
  }
  return false;
}
