import { postKey } from '../../db/keys/feeds.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import { batchGetItems, getItem } from '../../db/reads.ts';
import { type PostItem, PostItemSchema } from './post-item.ts';

/**
 * The feeds domain's public reads of posts (feeds and lessons; ACCESS_PATTERNS.md, "… feed reads"): by id, alone or
 * many, eventually or strongly consistent, alone or as reads to send with others in one BatchGetItem. The answers
 * are parsed posts (no keys), never stored items.
 */

export function findPostById(postId: number, options: { consistent?: boolean } = {}) {
  return getItem(postKey(postId), PostItemSchema, options);
}

/** `findPostById` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const postRead = (postId: number, options: { consistent?: boolean } = {}) =>
  itemRead(postKey(postId), PostItemSchema, options);

/** Many posts by id (eventually consistent) as a read to send with others in one BatchGetItem, by id. */
export const postsByIdsRead = (postIds: readonly number[]) =>
  mapRead(
    itemsRead([...new Set(postIds)].map(postKey), PostItemSchema),
    (posts) => new Map(posts.map((post) => [post.id, post])),
  );

/**
 * Many posts by id (BatchGetItem); unknown ids are absent. `consistent` for lists, whose pages must show every
 * write completed before the read (counters, status) whatever the index has delivered so far.
 */
export async function findPostsByIds(
  postIds: readonly number[],
  options: { consistent?: boolean } = {},
): Promise<Map<number, PostItem>> {
  if (postIds.length === 0) return new Map();
  const posts = await batchGetItems([...new Set(postIds)].map(postKey), PostItemSchema, options);
  return new Map(posts.map((post) => [post.id, post]));
}
