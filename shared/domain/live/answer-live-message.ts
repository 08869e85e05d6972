import { LIVE_MESSAGE_MAX_BYTES, type LiveMessage } from './live-messages.ts';

/**
 * `$default`: the one message a client sends is `{"type":"ping"}`, answered `pong` (any message also resets API
 * Gateway's 10-minute idle timer). Anything else, or anything over the size cap, gets an `error` message.
 */
export function answerLiveMessage(body: string | undefined): LiveMessage {
  if (body !== undefined && Buffer.byteLength(body) > LIVE_MESSAGE_MAX_BYTES) {
    return {
      type: 'error',
      code: 'message_too_large',
      message: `Messages are at most ${LIVE_MESSAGE_MAX_BYTES} bytes.`,
    };
  }
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    if (typeof parsed === 'object' && parsed !== null && (parsed as { type?: unknown }).type === 'ping') {
      return { type: 'pong' };
    }
  } catch {
    // Not JSON: answered below.
  }
  return { type: 'error', code: 'unknown_message', message: 'The only message accepted is {"type":"ping"}.' };
}
