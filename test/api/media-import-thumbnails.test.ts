import { describe, expect, it } from 'vitest';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { createTestUser } from '../support/api.ts';
import { type Json, profileList } from '../support/profiles.ts';

/**
 * Issue 21 item 17: imported images carry a `thumbnail_url` as the contract gives images one (the record's own,
 * else the image itself); files that are not images have none unless the record names one.
 */
describe('issue 21 item 17: thumbnail_url of imported media', () => {
  it('is the record’s thumbnail, else the image’s own URL for images, else null', async () => {
    const uploader = await createTestUser();
    const record = (ref: string, extra: Record<string, unknown>) => ({
      ref,
      user: uploader.username,
      file_name: `${ref}.bin`,
      file_type: 'image/png',
      file_size: 100,
      ...extra,
    });
    const result = await runImport({
      media: [
        record('image', { file_url: 'https://cdn.example.com/a.png', created_at: '2026-01-01T00:00:01Z' }),
        record('withThumb', {
          file_type: 'image/jpeg',
          file_url: 'https://cdn.example.com/b.jpg',
          thumbnail_url: 'https://cdn.example.com/b-small.webp',
          created_at: '2026-01-01T00:00:02Z',
        }),
        record('video', {
          file_type: 'video/mp4',
          file_url: 'https://cdn.example.com/c.mp4',
          created_at: '2026-01-01T00:00:03Z',
        }),
        record('noUrl', { created_at: '2026-01-01T00:00:04Z' }),
      ],
    });
    const ids = result.media as Record<string, number>;
    const response = await profileList<{ data: Json[] }>(uploader, uploader.username, 'media');
    expect(response.status, response.text).toBe(200);
    const thumbnailOf = (ref: string) =>
      response.body.data.find((item) => item.id === ids[ref])?.thumbnail_url as string | null | undefined;
    expect(thumbnailOf('image')).toBe('https://cdn.example.com/a.png');
    expect(thumbnailOf('withThumb')).toBe('https://cdn.example.com/b-small.webp');
    expect(thumbnailOf('video')).toBeNull();
    expect(thumbnailOf('noUrl')).toBeNull();
  });
});
