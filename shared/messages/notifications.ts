import * as v from 'valibot';

/**
 * A message on the `notifications` queue: bring one recipient's stored notifications in line with a bulk action's
 * watermark (`mark_read`: flip what it covers to read with `read_at`; `purge`: delete what it covers).
 */
export const tidyNotificationsMessageSchema = v.object({
  user_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  action: v.picklist(['mark_read', 'purge']),
  /** The watermark: a `created_at` (UTC ISO) at or before which the action applies. */
  watermark: v.pipe(v.string(), v.isoTimestamp()),
  read_at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});

export type TidyNotificationsMessage = v.InferOutput<typeof tidyNotificationsMessageSchema>;
