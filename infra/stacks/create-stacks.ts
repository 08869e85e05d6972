import type { App } from 'aws-cdk-lib';
import {
  FALLBACK_ROUTE,
  QUEUES,
  type QueueEntry,
  ROUTE_DOMAINS,
  type RouteDomain,
  type RouteEntry,
} from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import type { NativeTarget } from '../constructs/native-modules.ts';
import { allFunctionSpecs } from '../function-specs.ts';
import { stackName } from '../naming.ts';
import { ApiRoutesStack } from './api-routes-stack.ts';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
import { MonitoringStack } from './monitoring-stack.ts';
import { WorkersStack } from './workers-stack.ts';

export interface CreateStacksOptions {
  /** @default ROUTE_DOMAINS */
  readonly routeDomains?: readonly RouteDomain[];
  /** @default QUEUES */
  readonly queues?: readonly QueueEntry[];
  /** @default FALLBACK_ROUTE */
  readonly fallbackRoute?: RouteEntry;
  /** @default true */
  readonly bundle?: boolean;
  /** @default 'lambda' */
  readonly nativeTarget?: NativeTarget;
}

/**
 * The stage's stacks, split by lifecycle: `data` (stateful, RETAIN, rarely changed) and the stateless `api` (the
 * HTTP API, authorizer, catch-all, domain), one `api-<domain>` per catalogue domain (its routes and functions),
 * `workers` and `monitoring`, which can be destroyed and redeployed freely. app.ts and the infra tests both build
 * through here, so the tests check the real wiring (with a synthetic catalogue when they need one).
 */
export function createStacks(app: App, config: StageConfig, options: CreateStacksOptions = {}) {
  const routeDomains = options.routeDomains ?? ROUTE_DOMAINS;
  const routes = routeDomains.flatMap((domain) => domain.routes);
  const queues = options.queues ?? QUEUES;
  const fallbackRoute = options.fallbackRoute ?? FALLBACK_ROUTE;
  const bundle = options.bundle ?? true;
  const { nativeTarget } = options;
  const env = { account: config.account, region: config.region };
  const common = { env, config, terminationProtection: config.stage === 'prod' };

  const data = new DataStack(app, stackName(config.stage, 'data'), {
    ...common,
    queues,
    description: `Community API (${config.stage}): table, media bucket, queues, mail identity, secrets`,
  });
  const api = new ApiStack(app, stackName(config.stage, 'api'), {
    ...common,
    resources: data,
    fallbackRoute,
    bundle,
    nativeTarget,
    description: `Community API (${config.stage}): HTTP API, authorizer, catch-all and domain`,
  });
  const routeStacks = new Map<string, ApiRoutesStack>();
  for (const domain of routeDomains) {
    routeStacks.set(
      domain.name,
      new ApiRoutesStack(app, stackName(config.stage, `api-${domain.name}`), {
        ...common,
        resources: data,
        api: api.api,
        authorizer: api.authorizer,
        publicBaseUrl: api.publicBaseUrl,
        live: api.live.access,
        routes: domain.routes,
        bundle,
        nativeTarget,
        description: `Community API (${config.stage}): the ${domain.name} routes, one function each`,
      }),
    );
  }
  // CloudFormation rejects a stack without resources, so the workers stack exists once a queue is catalogued.
  const workers =
    queues.length > 0
      ? new WorkersStack(app, stackName(config.stage, 'workers'), {
          ...common,
          resources: data,
          live: api.live.access,
          queues,
          bundle,
          nativeTarget,
          description: `Community API (${config.stage}): queue consumers`,
        })
      : undefined;
  const monitoring = new MonitoringStack(app, stackName(config.stage, 'monitoring'), {
    ...common,
    apiId: api.api.apiId,
    functions: allFunctionSpecs(routes, queues, fallbackRoute),
    queues,
    description: `Community API (${config.stage}): alarms`,
  });
  // Alarms address functions by name: create them after the functions exist.
  monitoring.addStackDependency(api);
  for (const routeStack of routeStacks.values()) monitoring.addStackDependency(routeStack);
  if (workers) monitoring.addStackDependency(workers);
  return { data, api, routeStacks, workers, monitoring };
}
