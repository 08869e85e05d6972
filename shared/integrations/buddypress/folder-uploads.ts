import { constants } from 'node:fs';
import { access, open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BuddypressUploads, SourceImage, UploadsImage, UploadsOwner } from './uploads-location.ts';
import {
  imageFolder,
  pickImageFile,
  SOURCE_IMAGE_MAX_BYTES,
  SourceImageOutside,
  SourceImageTooLarge,
} from './uploads-layout.ts';

const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/**
 * The uploads folder on a file system: a local path (`npm start`), or an EFS mount in a Lambda. Every file read
 * resolves (symbolic links included) inside the folder's real path; one leading elsewhere is refused, never read.
 */
export function folderUploads(root: string): BuddypressUploads {
  const base = path.resolve(root);
  return {
    async image(owner: UploadsOwner, sourceId: number, kind: UploadsImage): Promise<SourceImage | undefined> {
      const segments = imageFolder(owner, sourceId, kind);
      const realRoot = await realpath(base);
      const folder = path.join(realRoot, ...segments);
      let entries: { name: string; isFile(): boolean; isSymbolicLink(): boolean }[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch (error) {
        // No folder: the member or group never uploaded one.
        if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
        throw error;
      }
      // Subfolders (`history/`, BuddyPress ≥ 10's earlier avatars) are not candidates; links are judged on reading.
      const names = entries
        .filter((entry) => entry.isFile() || entry.isSymbolicLink())
        .map((entry) => entry.name);
      const name = pickImageFile(kind, names);
      if (name === undefined) return undefined;
      return { name, bytes: await readInside(realRoot, path.join(folder, name), name) };
    },

    async reachable(): Promise<boolean> {
      try {
        if (!(await stat(base)).isDirectory()) return false;
        await access(base, constants.R_OK | constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The bytes of a regular file whose real path is under `realRoot`, at most SOURCE_IMAGE_MAX_BYTES of them. */
async function readInside(realRoot: string, file: string, name: string): Promise<Uint8Array> {
  const real = await realpath(file);
  if (!real.startsWith(`${realRoot}${path.sep}`)) throw new SourceImageOutside(name);
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    // A FIFO or a device would block or never end; only regular files are images.
    if (!info.isFile()) throw new Error(`${name} is not a regular file`);
    if (info.size > SOURCE_IMAGE_MAX_BYTES) throw new SourceImageTooLarge(name, info.size);
    const bytes = await handle.readFile();
    // The file may have grown since it was measured.
    if (bytes.length > SOURCE_IMAGE_MAX_BYTES) throw new SourceImageTooLarge(name, bytes.length);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  } finally {
    await handle.close();
  }
}
