import {
  closeConnection,
  liveConnectionsConfigured,
  postToConnection,
} from '../../integrations/live-connections.ts';
import { logger } from '../../observability/logger.ts';
import { businessMetrics } from '../../observability/metrics.ts';
import {
  deleteLiveConnection,
  findMemberLiveConnections,
  type LiveConnection,
} from './live-connection-repository.ts';
import { encodeLiveMessage, type LiveMessage } from './live-messages.ts';

/** Posts in flight at once for one event: bounded, so a burst never opens more than this many requests. */
const SEND_CONCURRENCY = 10;
/** Messages for one event beyond this are not sent one by one; the last unread count stands for them. */
export const MAX_MESSAGES_PER_EVENT = 20;

/**
 * Sends the messages (built only when the member has a connection) to every open connection of ONE member, in order per connection. The recipient is the only
 * partition read (the member's own connections), so nothing can reach another member's connection. A connection
 * API Gateway no longer knows (`GoneException`) is removed. Never throws: a live push is best effort and must not
 * fail the write that caused it.
 */
export async function sendToMember(
  userId: number,
  messages: () => Promise<readonly LiveMessage[]>,
): Promise<void> {
  if (!liveConnectionsConfigured()) return;
  try {
    const connections = await findMemberLiveConnections(userId);
    if (connections.length === 0) return;
    // Built only now: a member with no open connection costs the event one Query and nothing else.
    const payloads = (await messages()).map(encodeLiveMessage);
    if (payloads.length === 0) return;
    await forEachBounded(connections, (connection) => sendAll(connection, payloads));
  } catch (error) {
    logger.warn('live announcement failed', { userId, error });
  }
}

async function sendAll(connection: LiveConnection, payloads: readonly string[]): Promise<void> {
  for (const payload of payloads) {
    const outcome = await postToConnection(connection.connectionId, payload);
    if (outcome === 'sent') {
      businessMetrics.live('LiveSends');
      continue;
    }
    if (outcome === 'gone') {
      businessMetrics.live('LiveSendsGone');
      await deleteLiveConnection(connection.userId, connection.connectionId);
    } else {
      businessMetrics.live('LiveSendsFailed');
    }
    return;
  }
}

/** Closes a connection after telling it why (API Gateway cannot set a close code itself, see README). */
export async function closeWithReason(connection: LiveConnection, message: LiveMessage): Promise<void> {
  await postToConnection(connection.connectionId, encodeLiveMessage(message));
  await closeConnection(connection.connectionId);
  await deleteLiveConnection(connection.userId, connection.connectionId);
}

async function forEachBounded<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += SEND_CONCURRENCY) {
    await Promise.all(items.slice(start, start + SEND_CONCURRENCY).map(work));
  }
}
