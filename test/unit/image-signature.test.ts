import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageTypeOf } from '../../shared/domain/media/image-signature.ts';

/**
 * The migration's copied images are typed by their magic bytes without `file-type` (issue 21, item 21: lean
 * functions). Whatever the file, the answer is the one `file-type` gives when that is one of the four image
 * formats kept, and none otherwise.
 */
const picture = () =>
  sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 200, g: 10, b: 10 } } });

/** An animated PNG: an `acTL` chunk (8 bytes of data) inserted after IHDR. */
function animatedPng(png: Buffer): Buffer {
  const ihdrEnd = 8 + 12 + 13;
  const acTL = Buffer.alloc(20);
  acTL.writeUInt32BE(8, 0);
  acTL.write('acTL', 4, 'latin1');
  acTL.writeUInt32BE(2, 8);
  return Buffer.concat([png.subarray(0, ihdrEnd), acTL, png.subarray(ihdrEnd)]);
}

describe('imageTypeOf', () => {
  it('agrees with file-type on images, animated PNG, JPEG-LS and other files', async () => {
    const png = await picture().png().toBuffer();
    const jpeg = await picture().jpeg().toBuffer();
    const samples: Record<string, Buffer> = {
      jpeg,
      png,
      gif: await picture().gif().toBuffer(),
      webp: await picture().webp().toBuffer(),
      tiff: await picture().tiff().toBuffer(),
      apng: animatedPng(png),
      jpegLs: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xf7]), jpeg.subarray(4)]),
      pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
      riffWave: Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00', 'latin1'),
      text: Buffer.from('GI'),
      empty: Buffer.alloc(0),
    };
    const kept = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
    for (const [name, bytes] of Object.entries(samples)) {
      const detected = (await fileTypeFromBuffer(bytes))?.mime;
      expect(imageTypeOf(bytes), name).toBe(
        detected !== undefined && kept.has(detected) ? detected : undefined,
      );
    }
    expect(
      ['jpeg', 'png', 'gif', 'webp'].map((name) => imageTypeOf(samples[name] ?? Buffer.alloc(0))),
    ).toEqual(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
  });
});
