import {
  DEFAULT_TIMEOUT_SECONDS,
  FALLBACK_ROUTE,
  type Grants,
  type NativeModule,
  QUEUES,
  type QueueEntry,
  ROUTES,
  type RouteEntry,
} from '../shared/catalogue/index.ts';

/**
 * Every Lambda function the app deploys, derived from the catalogue (one per route, one per queue) plus the
 * authorizer. The stacks, the alarms and the bundle report all iterate this list, so a new catalogue line is
 * wired, alarmed and measured without touching infra code.
 */
export interface FunctionSpec {
  /** Stable id: the operation id, `<queue>Worker`, or `authorizer`; names the construct and the function. */
  readonly id: string;
  readonly kind: 'route' | 'worker' | 'authorizer';
  readonly entry: string;
  readonly grants: Grants;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
  /** Reserved concurrency (a floor and a ceiling); undefined = none. */
  readonly reservedConcurrency?: number | undefined;
  /** Native packages installed into this function's asset only (see `RouteEntry.nativeModules`, `QueueEntry`'s). */
  readonly nativeModules?: readonly NativeModule[];
  /** Files copied beside the bundled code (the catalogue line's `bundleFiles`). */
  readonly bundleFiles?: readonly string[];
}

/**
 * API Gateway gives an authorizer at most 10 s; a header seen before costs one BatchGetItem, a few milliseconds.
 * The authorizer answers `unavailable` (503) before its own time is up rather than being cut off.
 */
export const AUTHORIZER_SPEC: FunctionSpec = {
  id: 'authorizer',
  kind: 'authorizer',
  entry: 'functions/auth/authorizer.ts',
  grants: { table: 'read', secrets: ['passwordPepper'] },
  timeoutSeconds: 10,
};

export function routeSpec(route: RouteEntry): FunctionSpec {
  return {
    id: route.operationId,
    kind: 'route',
    entry: route.entry,
    grants: route.grants,
    memoryMb: route.memoryMb,
    timeoutSeconds: route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    ...(route.nativeModules ? { nativeModules: route.nativeModules } : {}),
    ...(route.bundleFiles ? { bundleFiles: route.bundleFiles } : {}),
  };
}

export function workerSpec(queue: QueueEntry): FunctionSpec {
  return {
    id: `${queue.name}Worker`,
    kind: 'worker',
    entry: queue.entry,
    grants: queue.grants,
    memoryMb: queue.memoryMb,
    timeoutSeconds: queue.timeoutSeconds,
    reservedConcurrency: queue.reservedConcurrency,
    ...(queue.nativeModules ? { nativeModules: queue.nativeModules } : {}),
  };
}

/** The authorizer, the routes, the catch-all route and the queue workers. */
export function allFunctionSpecs(
  routes: readonly RouteEntry[] = ROUTES,
  queues: readonly QueueEntry[] = QUEUES,
  fallback: RouteEntry = FALLBACK_ROUTE,
): FunctionSpec[] {
  return [AUTHORIZER_SPEC, ...routes.map(routeSpec), routeSpec(fallback), ...queues.map(workerSpec)];
}
