import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../../db/client.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import { liveConnectionKey, liveTicketKey, memberLiveConnections } from '../../db/keys/live.ts';
import { queryItems } from '../../db/reads.ts';
import { TTL_ATTRIBUTE } from '../../db/table-definition.ts';

/**
 * A connection outlives no API Gateway connection (2 hours at most), so its item expires after that even when its
 * `$disconnect` never ran; a send to it before then meets `GoneException` and removes it.
 */
const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 5 * 60;

export interface LiveConnection {
  readonly connectionId: string;
  readonly userId: number;
  /** Epoch milliseconds: the oldest is closed first when a member opens too many. */
  readonly connectedAt: number;
}

const ConnectionItemSchema = v.pipe(
  v.looseObject({ connection_id: v.string(), user_id: v.number(), connected_at: v.number() }),
  v.transform(
    (raw): LiveConnection => ({
      connectionId: raw.connection_id,
      userId: raw.user_id,
      connectedAt: raw.connected_at,
    }),
  ),
);

export async function putLiveConnection(connection: LiveConnection): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...liveConnectionKey(connection.userId, connection.connectionId),
        entity: 'live_connection',
        connection_id: connection.connectionId,
        user_id: connection.userId,
        connected_at: connection.connectedAt,
        [TTL_ATTRIBUTE]: Math.floor(connection.connectedAt / 1000) + CONNECTION_TTL_SECONDS,
      },
    }),
  );
}

export async function deleteLiveConnection(userId: number, connectionId: string): Promise<void> {
  await db().send(
    new DeleteCommand({ TableName: tableName(), Key: liveConnectionKey(userId, connectionId) }),
  );
}

/**
 * A member's open connections, oldest first. Bounded: the cap keeps at most a few per member; the limit only
 * guards against items a crash left behind before their TTL.
 */
export async function findMemberLiveConnections(userId: number): Promise<LiveConnection[]> {
  const now = Math.floor(Date.now() / 1000);
  const found = await queryItems(
    memberLiveConnections(userId),
    v.pipe(
      v.looseObject({ [TTL_ATTRIBUTE]: v.optional(v.number()) }),
      v.transform((raw) => ({ raw, expires: raw[TTL_ATTRIBUTE] as number | undefined })),
    ),
    { consistent: true, limit: 50 },
  );
  return found
    .filter(({ expires }) => expires === undefined || expires > now)
    .map(({ raw }) => v.parse(ConnectionItemSchema, raw))
    .sort((a, b) => a.connectedAt - b.connectedAt);
}

export async function putLiveTicket(ticketHash: string, userId: number, expiresAt: number): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...liveTicketKey(ticketHash),
        entity: 'live_ticket',
        user_id: userId,
        expires_at_ms: expiresAt,
        [TTL_ATTRIBUTE]: Math.ceil(expiresAt / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Uses a ticket up: one conditional Delete, so of two concurrent uses only one gets the member back, and an expired
 * ticket (TTL deletion lags) is refused. Answers the member the ticket was issued to, or undefined.
 */
export async function consumeLiveTicket(ticketHash: string, now: number): Promise<number | undefined> {
  try {
    const result = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: liveTicketKey(ticketHash),
        ConditionExpression: 'attribute_exists(pk) AND expires_at_ms > :now',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const userId = result.Attributes?.user_id;
    return typeof userId === 'number' ? userId : undefined;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}
