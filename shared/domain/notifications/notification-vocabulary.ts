/**
 * The notifications domain's vocabulary: the contract's notification types, the preference flags and digest
 * frequencies, and the mail message the emitter queues for the mail worker. Contracts build their schemas from
 * these lists, so the domain never depends on the HTTP contracts.
 */
/** The contract's notification `type` values (community-api.md, Events). */
export const NOTIFICATION_TYPES = [
  'new_comment',
  'new_reply',
  'new_reaction',
  'new_follower',
  'mention',
  'space_invite',
  'space_join',
  'course_enrollment',
  'lesson_complete',
] as const;

/** Which notification types a recipient can ask to receive by e-mail or push (contract: Notification preferences). */
export const EMAIL_PREFERENCE_KEYS = [
  'new_comment',
  'new_reaction',
  'new_follower',
  'mention',
  'space_invite',
] as const;
export const PUSH_PREFERENCE_KEYS = ['new_comment', 'new_reaction', 'mention'] as const;
export const DIGEST_FREQUENCIES = ['daily', 'weekly', 'never'] as const;

/** One e-mail on the mail queue; `dedupe_id` makes a redelivered message send at most once. */
export interface MailMessage {
  readonly dedupe_id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}
