/**
 * The live channel's messages (README, Live updates). Server → client: `notification`, `unread_count`, `pong`,
 * `closing`, `error`. Client → server: `{"type":"ping"}` only.
 */
export type LiveMessage =
  | {
      readonly type: 'notification';
      /** A notification as the list endpoints show it (the notification domain's response; opaque here). */
      readonly notification: object;
      readonly unread_count: number;
    }
  | { readonly type: 'unread_count'; readonly unread_count: number }
  | { readonly type: 'pong' }
  | { readonly type: 'closing'; readonly code: number; readonly reason: string }
  | { readonly type: 'error'; readonly code: string; readonly message: string };

/**
 * Largest message either way, in bytes. API Gateway allows 128 KB per message (32 KB frames); a notification is a
 * few hundred bytes, so anything near the cap is a mistake or abuse. An outgoing notification over it is replaced
 * by its `unread_count` message (the client then reads the list); an incoming message over it is refused.
 */
export const LIVE_MESSAGE_MAX_BYTES = 16 * 1024;

/** Per member: at most this many open connections; opening one more closes the oldest with `TOO_MANY_CODE`. */
export const MAX_CONNECTIONS_PER_MEMBER = 5;
export const TOO_MANY_CONNECTIONS_CODE = 4008;

/** Serializes a message, falling back to the unread count when a notification is too large to send. */
export function encodeLiveMessage(message: LiveMessage): string {
  const text = JSON.stringify(message);
  if (Buffer.byteLength(text) <= LIVE_MESSAGE_MAX_BYTES || message.type !== 'notification') return text;
  return JSON.stringify({ type: 'unread_count', unread_count: message.unread_count });
}
