import { businessMetrics } from '../../observability/metrics.ts';
import {
  deleteLiveConnection,
  findMemberLiveConnections,
  putLiveConnection,
} from './live-connection-repository.ts';
import { MAX_CONNECTIONS_PER_MEMBER, TOO_MANY_CONNECTIONS_CODE } from './live-messages.ts';
import { closeWithReason } from './send-to-member.ts';

/**
 * `$connect` after authorization: records the connection under its member, then keeps the member at
 * `MAX_CONNECTIONS_PER_MEMBER` by closing the oldest ones (each told `closing` with code 4008 first).
 */
export async function openLiveConnection(userId: number, connectionId: string): Promise<void> {
  await putLiveConnection({ userId, connectionId, connectedAt: Date.now() });
  businessMetrics.live('LiveConnects');
  const connections = await findMemberLiveConnections(userId);
  const excess = connections.filter((c) => c.connectionId !== connectionId);
  const toClose = excess.slice(0, Math.max(0, connections.length - MAX_CONNECTIONS_PER_MEMBER));
  await Promise.all(
    toClose.map((connection) =>
      closeWithReason(connection, {
        type: 'closing',
        code: TOO_MANY_CONNECTIONS_CODE,
        reason: `At most ${MAX_CONNECTIONS_PER_MEMBER} live connections per member; this was the oldest.`,
      }).catch(() => deleteLiveConnection(connection.userId, connection.connectionId)),
    ),
  );
}

/** `$disconnect`: forgets the connection (also run when the server closed it). */
export async function closeLiveConnection(userId: number, connectionId: string): Promise<void> {
  await deleteLiveConnection(userId, connectionId);
  businessMetrics.live('LiveDisconnects');
}
