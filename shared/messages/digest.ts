import * as v from 'valibot';

const frequency = v.picklist(['daily', 'weekly']);
/** `2026-11-22` for a daily digest, `2026-W47` (ISO week) for a weekly one. */
const period = v.pipe(v.string(), v.regex(/^\d{4}-(\d{2}-\d{2}|W\d{2})$/));

/**
 * A message on the `digest` queue. `plan` (from the schedule or the operator) walks the subscribers of one
 * frequency and fans out one `member` message each; `period` defaults to the current one, `after` resumes the walk.
 * `member` mails one subscriber's digest of one period, at most once.
 */
export const digestMessageSchema = v.variant('kind', [
  v.object({
    kind: v.literal('plan'),
    frequency,
    period: v.optional(period),
    after: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  v.object({
    kind: v.literal('member'),
    frequency,
    period,
    user_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
]);

export type DigestMessage = v.InferOutput<typeof digestMessageSchema>;
