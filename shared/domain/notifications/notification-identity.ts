import { createHash } from 'node:crypto';

/**
 * A notification's identity comes from its event and recipient, so every delivery of one event message names the
 * same notifications (idempotent under redelivery) with no counter item to allocate from.
 *
 * The id is a time-ordered safe integer: milliseconds since 2025-01-01 (the event's time) times 4096, plus 12 bits
 * of a hash of the event key (room for 69 years). Two notifications of one millisecond may still draw the same id:
 * the store (notification-creation-repository.ts) sees the other event's key on the item and takes the next id, so
 * a redelivery, probing the same sequence, finds its own notification again.
 */
const EPOCH_MS = Date.UTC(2025, 0, 1);
const HASH_SPACE = 4096;

/** The key stored on the notification (`event_key`) that tells a redelivery from a colliding id. */
export const notificationEventKey = (eventId: string, recipientId: number): string =>
  `${eventId}:${recipientId}`;

export function notificationIdOf(eventKey: string, occurredAt: string): number {
  const elapsed = Math.max(0, Date.parse(occurredAt) - EPOCH_MS);
  const hash = createHash('sha256').update(eventKey).digest().readUInt16BE(0) % HASH_SPACE;
  return elapsed * HASH_SPACE + hash + 1;
}
