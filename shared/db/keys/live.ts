import { type ItemKey, type Partition, tablePartition } from '../partition.ts';

/**
 * Live connections (WebSocket, shared/domain/live/). A member's open connections sit in the member's own
 * partition, so fanning an event out to one member reads one small partition and no partition takes every
 * member's connects. Each connection expires by TTL in case its `$disconnect` never ran.
 */
export const LIVE_CONNECTION_SORT_PREFIX = 'LIVE#';

export const liveConnectionKey = (userId: number, connectionId: string): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `${LIVE_CONNECTION_SORT_PREFIX}${connectionId}`,
});

/** All open connections of one member (at most a handful: the per-member cap). */
export const memberLiveConnections = (userId: number): Partition =>
  tablePartition(`USER#${userId}`, LIVE_CONNECTION_SORT_PREFIX);

/**
 * A live ticket (`POST /live/tickets`) by the hash of its secret: the ticket itself is never stored. One
 * partition per ticket; deleted when used (single use) and expired by TTL otherwise.
 */
export const liveTicketKey = (ticketHash: string): ItemKey => ({
  pk: `LIVETICKET#${ticketHash}`,
  sk: 'TICKET',
});
