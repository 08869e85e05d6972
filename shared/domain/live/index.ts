/**
 * The live channel's public surface: what another domain calls, once a change is committed, to push messages to a
 * member's open connections. The channel knows no other domain: callers build the messages.
 */
export type { LiveMessage } from './live-messages.ts';
export { MAX_MESSAGES_PER_EVENT, sendToMember } from './send-to-member.ts';
