import * as v from 'valibot';
import { postSweepKey } from '../../db/keys/feeds.ts';
import { itemRead, type KeyedRead } from '../../db/read-together.ts';
import { getItem } from '../../db/reads.ts';
import {
  deleteAction,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import type { PostItem } from './post-item.ts';

/**
 * The sweep marker of a deleted feed (`postSweepKey`): put by the delete's transaction, removed by the `feeds`
 * worker once the feed's likes and comments are gone (ACCESS_PATTERNS.md, "DELETE /feeds/{id}").
 */

const MarkerSchema = v.object({ comments_count: v.pipe(v.number(), v.integer()) });
export type FeedSweepMarker = v.InferOutput<typeof MarkerSchema>;

/** Put in the delete's transaction: the published comments the feed counted, which the sweep must remove. */
export const feedSweepMarkerAction = (post: PostItem): TransactAction =>
  putAction({ ...postSweepKey(post.id), entity: 'feed_sweep', comments_count: post.comments_count });

/** The marker, as a read to send with the feed's own (consistent: a retried delete decides from it). */
export const feedSweepMarkerRead = (postId: number): KeyedRead<FeedSweepMarker | undefined> =>
  itemRead(postSweepKey(postId), MarkerSchema, { consistent: true });

/** The marker now (the worker's guard: only a deleted feed is swept). */
export const findFeedSweepMarker = (postId: number): Promise<FeedSweepMarker | undefined> =>
  getItem(postSweepKey(postId), MarkerSchema, { consistent: true });

/** Ends a sweep. */
export async function removeFeedSweepMarker(postId: number): Promise<void> {
  await transactWriteIfConditionsHold([deleteAction(postSweepKey(postId))]);
}
