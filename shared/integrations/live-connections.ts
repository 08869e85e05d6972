import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { env } from '../config/env.ts';

let client: ApiGatewayManagementApiClient | undefined;
let clientEndpoint = '';

/** Whether this function may post to live connections (its environment names the management endpoint). */
export const liveConnectionsConfigured = (): boolean => env().LIVE_CONNECTIONS_ENDPOINT !== '';

/** One management API client per process and endpoint, created on first use. */
function managementClient(): ApiGatewayManagementApiClient {
  // CloudFormation names the API `wss://…`; its `@connections` API is the same host and stage over HTTPS.
  const endpoint = env().LIVE_CONNECTIONS_ENDPOINT.replace(/^wss:/, 'https:').replace(/^ws:/, 'http:');
  if (!client || clientEndpoint !== endpoint) {
    client = new ApiGatewayManagementApiClient({ region: env().AWS_REGION, endpoint });
    clientEndpoint = endpoint;
  }
  return client;
}

/** What one post found: `gone` means the connection no longer exists (its item must go). */
export type PostOutcome = 'sent' | 'gone' | 'failed';

export async function postToConnection(connectionId: string, data: string): Promise<PostOutcome> {
  try {
    await managementClient().send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(data) }),
    );
    return 'sent';
  } catch (error) {
    if (error instanceof Error && error.name === 'GoneException') return 'gone';
    return 'failed';
  }
}

/** Closes a connection from the server side (API Gateway then runs `$disconnect`); a gone one is fine. */
export async function closeConnection(connectionId: string): Promise<void> {
  try {
    await managementClient().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'GoneException')) throw error;
  }
}
