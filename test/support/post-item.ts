import type { PostItem } from '../../shared/domain/feeds/post-item.ts';

/**
 * A published feed as the feeds domain holds it (id 9 by user 4 in space 7, topics 3 and 1), for unit tests of what
 * a feed counts and writes; `overrides` change any field.
 */
export const samplePost = (overrides: Partial<PostItem> = {}): PostItem => ({
  id: 9,
  user_id: 4,
  space_id: 7,
  space_visibility: 'public',
  title: 't',
  slug: 't',
  message: 'm',
  message_rendered: '<p>m</p>',
  type: 'text',
  status: 'published',
  topic_ids: [3, 1],
  comments_count: 0,
  reactions_count: 0,
  media: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
