import * as v from 'valibot';

/**
 * A message on the `mail` queue: one e-mail. `dedupe_id` is deterministic (e.g. `notification-<id>`), so a
 * redelivered or duplicated message is sent at most once (the worker claims it before sending).
 */
export const mailMessageSchema = v.object({
  dedupe_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9:_-]{1,200}$/)),
  to: v.pipe(v.string(), v.email()),
  subject: v.pipe(v.string(), v.minLength(1), v.maxLength(998)),
  text: v.string(),
});

export type MailMessage = v.InferOutput<typeof mailMessageSchema>;
