import * as v from 'valibot';

/**
 * A message on the `topics` queue: detach a deleted topic from the feeds that still carry it. Sent by
 * `DELETE /admin/topics/{id}` once the topic is gone (every read already treats it as gone), and again by the
 * worker itself while links remain; idempotent, so a redelivery only finds fewer links.
 */
export const detachTopicMessageSchema = v.object({
  topic_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export type DetachTopicMessage = v.InferOutput<typeof detachTopicMessageSchema>;
