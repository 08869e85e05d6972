import type { QueueName } from './queues.ts';
import type { SecretName } from './secrets.ts';
import type { GrantsOf, LiveRouteEntryOf } from './types.ts';

/**
 * The live WebSocket API (README, Live updates): its authorizer, run at `$connect` only, and one Lambda per route.
 * CDK (infra/stacks/live-stack.ts) and the local gateway (infra/local/live-gateway.ts) both read these lines.
 */
export const LIVE_AUTHORIZER = {
  entry: 'functions/live/authorize-live-connection.ts',
  // Reads credentials as the HTTP authorizer does; deletes the ticket it uses up.
  grants: { table: 'readWrite', secrets: ['passwordPepper'] },
  timeoutSeconds: 10,
} as const satisfies { entry: string; grants: GrantsOf<QueueName, SecretName>; timeoutSeconds: number };

export const LIVE_ROUTES = [
  {
    routeKey: '$connect',
    entry: 'functions/live/connect.ts',
    // Closes the member's oldest connection past the cap.
    grants: { table: 'readWrite', live: 'post' },
  },
  { routeKey: '$disconnect', entry: 'functions/live/disconnect.ts', grants: { table: 'readWrite' } },
  // Answers pings in its own response (a two-way route): no grant at all.
  { routeKey: '$default', entry: 'functions/live/message.ts', grants: {} },
] as const satisfies readonly LiveRouteEntryOf<QueueName, SecretName>[];
