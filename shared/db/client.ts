import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env.ts';

let documentClient: DynamoDBDocumentClient | undefined;

/**
 * One DocumentClient per process, created on first use (not at import, so tests can set the environment
 * first). The SDK keeps TCP connections alive by default, which is most of a warm call's latency.
 */
export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { DYNAMODB_ENDPOINT, AWS_REGION } = env();
    const client = new DynamoDBClient({
      region: AWS_REGION,
      ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
      maxAttempts: 4,
    });
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

export const tableName = (): string => env().TABLE_NAME;

/** Forget the client (tests that point the process at another endpoint). */
export function resetDbClient(): void {
  documentClient = undefined;
}
