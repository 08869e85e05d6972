import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * A message on the `feeds` queue: remove a deleted feed's likes and comments (with the likes on them and their
 * authors' counters). Sent by `DELETE /feeds/{id}` once the feed is gone, and again by the worker while work
 * remains; idempotent, so a redelivery only finds less to remove. `comments_left`: how many of the published
 * comments the deleted feed counted are still to be removed (the comment index may deliver some late).
 */
export const sweepFeedMessageSchema = v.object({
  post_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  comments_left: count,
});

export type SweepFeedMessage = v.InferOutput<typeof sweepFeedMessageSchema>;
