import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { API_BASE_PATH, FALLBACK_ROUTE, type RouteEntry } from '../../shared/catalogue/index.ts';
import { AUTHORIZER_SPEC, routeSpec } from '../function-specs.ts';
import { installDynamoDbMeter, METER_HEADER, meterHeader, metered } from './dynamodb-meter.ts';
import { invokeFunction } from './lambda-runtime.ts';

/** How a function answered: the local runtimes' common shape (in-process, or a bundled process). */
export type GatewayInvocation<R> =
  | {
      readonly outcome: 'ok';
      readonly value: R;
      /** Bundled mode: AWS calls of this invocation that IAM refused (the function may have answered 500). */
      readonly accessDenied?: string;
    }
  | { readonly outcome: 'error'; readonly error: Error }
  | { readonly outcome: 'timeout' }
  | { readonly outcome: 'throttled' };

export type GatewayInvoker = <R>(event: unknown, waitMs: number) => Promise<GatewayInvocation<R>>;

/** A route as the gateway runs it: its key, the function behind it and, unless public, the authorizer. */
export interface MountedRoute {
  readonly method: string;
  /** Path template under the base (`/feeds/{feed_id}`). */
  readonly path: string;
  /** `GET /v2/feeds/{feed_id}`, or `$default`. */
  readonly routeKey: string;
  /** For error lines: the operation or function name. */
  readonly name: string;
  readonly invoke: GatewayInvoker;
  readonly authorizer?: GatewayInvoker;
}

/**
 * The catalogue's routes run in this process (the default, in-process mode). Each handler invocation (not the
 * authorizer's) runs under the per-request DynamoDB meter, whose summary its answer carries (dynamodb-meter.ts).
 */
export function catalogueRoutes(routes: readonly RouteEntry[]): {
  routes: MountedRoute[];
  fallback: MountedRoute;
} {
  installDynamoDbMeter();
  const authorizer: GatewayInvoker = (event, waitMs) =>
    invokeFunction(AUTHORIZER_SPEC, event as APIGatewayRequestAuthorizerEventV2, { waitMs });
  const mount = (route: RouteEntry, routeKey: string): MountedRoute => ({
    method: route.method,
    path: route.path,
    routeKey,
    name: route.operationId,
    invoke: async <R>(event: unknown, waitMs: number) => {
      const { value: invocation, calls } = await metered(() =>
        invokeFunction<unknown, R>(routeSpec(route), event, { waitMs }),
      );
      const answer = invocation.outcome === 'ok' ? (invocation.value as { headers?: unknown }) : undefined;
      if (answer && typeof answer === 'object') {
        answer.headers = { ...(answer.headers as object), [METER_HEADER]: meterHeader(calls) };
      }
      return invocation;
    },
    ...(route.access === 'public' ? {} : { authorizer }),
  });
  return {
    routes: routes.map((route) => mount(route, `${route.method} ${API_BASE_PATH}${route.path}`)),
    fallback: mount(FALLBACK_ROUTE, '$default'),
  };
}
