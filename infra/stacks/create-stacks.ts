import type { App } from 'aws-cdk-lib';
import {
  FALLBACK_ROUTE,
  QUEUES,
  type QueueEntry,
  ROUTES,
  type RouteEntry,
} from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import { allFunctionSpecs } from '../function-specs.ts';
import { stackName } from '../naming.ts';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
import { MonitoringStack } from './monitoring-stack.ts';
import { WorkersStack } from './workers-stack.ts';

export interface CreateStacksOptions {
  /** @default ROUTES */
  readonly routes?: readonly RouteEntry[];
  /** @default QUEUES */
  readonly queues?: readonly QueueEntry[];
  /** @default FALLBACK_ROUTE */
  readonly fallbackRoute?: RouteEntry;
  /** @default true */
  readonly bundle?: boolean;
}

/**
 * The stage's stacks, split by lifecycle: `data` (stateful, RETAIN, rarely changed) and the stateless `api`,
 * `workers` and `monitoring`, which can be destroyed and redeployed freely. app.ts and the infra tests both
 * build through here, so the tests check the real wiring (with a synthetic catalogue when they need one).
 */
export function createStacks(app: App, config: StageConfig, options: CreateStacksOptions = {}) {
  const routes = options.routes ?? ROUTES;
  const queues = options.queues ?? QUEUES;
  const fallbackRoute = options.fallbackRoute ?? FALLBACK_ROUTE;
  const bundle = options.bundle ?? true;
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
    routes,
    fallbackRoute,
    bundle,
    description: `Community API (${config.stage}): HTTP API and one function per route`,
  });
  // CloudFormation rejects a stack without resources, so the workers stack exists once a queue is catalogued.
  const workers =
    queues.length > 0
      ? new WorkersStack(app, stackName(config.stage, 'workers'), {
          ...common,
          resources: data,
          queues,
          bundle,
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
  if (workers) monitoring.addStackDependency(workers);
  return { data, api, workers, monitoring };
}
