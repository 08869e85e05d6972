import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Test handlers for the local gateway's own behaviour (test/integration/gateway.test.ts): each answers with what
 * the gateway must or must not do, without the handler factory in the way.
 */
export async function echo(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) };
}

export async function slow(): Promise<APIGatewayProxyStructuredResultV2> {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return { statusCode: 200, body: '{}' };
}

export async function crash(): Promise<APIGatewayProxyStructuredResultV2> {
  throw new Error('boom: a detail that must never reach the client');
}

export async function huge(): Promise<APIGatewayProxyStructuredResultV2> {
  return { statusCode: 200, body: 'x'.repeat(7 * 1024 * 1024) };
}
