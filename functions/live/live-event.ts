import type { APIGatewayProxyWebsocketEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';

/** A live route's event: API Gateway repeats the `$connect` authorizer's context on every route of the connection. */
export type LiveEvent = APIGatewayProxyWebsocketEventV2 & {
  readonly requestContext: APIGatewayProxyWebsocketEventV2['requestContext'] & {
    readonly authorizer?: { readonly userId?: number | string };
  };
};
export type LiveResult = APIGatewayProxyResultV2;

/** The member the connection was authorized as; undefined only if the authorizer was bypassed (never in the API). */
export function memberOf(event: LiveEvent): number | undefined {
  const userId = Number(event.requestContext.authorizer?.userId);
  return Number.isInteger(userId) && userId > 0 ? userId : undefined;
}
