import { fileTypeFromBuffer } from 'file-type';
import { MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaType } from '../../vocabulary/media.ts';
import { emptyFile, fileTooLarge, invalidFileType } from './media-errors.ts';

const isAllowed = (type: string): type is MediaType => (MEDIA_TYPES as readonly string[]).includes(type);

/** `image/PNG; charset=x` → `image/png`. */
export const normalizeMediaType = (declared: string): string =>
  declared.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Declared types that say nothing (a form part sent without a type is `application/octet-stream`): the real type
 * decides alone. Any other declared type must equal the real one.
 */
const UNDECLARED = new Set(['', 'application/octet-stream']);

/** The size rule alone, for the declared size of a presigned request and the stored size before reading. */
export function checkSize(bytes: number): void {
  if (bytes > MEDIA_MAX_BYTES) throw fileTooLarge(bytes);
  if (bytes === 0) throw emptyFile();
}

/** The declared type alone must be allowed (a presigned request is refused before any object exists). */
export function checkDeclaredType(declared: string): MediaType {
  const type = normalizeMediaType(declared);
  if (!isAllowed(type)) throw invalidFileType();
  return type;
}

/**
 * The file's real type from its magic bytes (never its name or the declared type): it must be allowed, and equal
 * the declared one when one was declared. Answers the real type.
 */
export async function verifyFile(bytes: Uint8Array, declared: string): Promise<MediaType> {
  checkSize(bytes.length);
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  if (detected === undefined || !isAllowed(detected)) throw invalidFileType();
  const declaredType = normalizeMediaType(declared);
  if (!UNDECLARED.has(declaredType) && declaredType !== detected) {
    throw invalidFileType(`The file's content is ${detected}, not the declared ${declaredType}.`);
  }
  return detected;
}
