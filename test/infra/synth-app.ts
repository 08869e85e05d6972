import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import {
  FALLBACK_ROUTE,
  type QueueEntry,
  QUEUES,
  ROUTE_DOMAINS,
  type RouteDomain,
  type RouteEntry,
} from '#shared/catalogue/index.ts';
import { APP_CONTEXT, stageConfig } from '#infra/config.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { createStacks } from '#infra/stacks/create-stacks.ts';

/**
 * A catalogue exercising every grant kind and a queue, for invariants the real catalogue cannot reach yet.
 * Entries need not exist: the tests synthesize without bundling.
 */
export const SYNTHETIC_ROUTES: readonly RouteEntry[] = [
  {
    operationId: 'publicNoGrants',
    method: 'GET',
    path: '/ping',
    access: 'public',
    entry: 'x.ts',
    grants: {},
  },
  {
    operationId: 'readTable',
    method: 'GET',
    path: '/items/{id}',
    access: 'authenticated',
    entry: 'x.ts',
    grants: { table: 'read' },
  },
  {
    operationId: 'writeEverything',
    method: 'POST',
    path: '/items',
    access: 'administrator',
    entry: 'x.ts',
    grants: {
      table: 'readWrite',
      bucket: { read: ['pending/'], write: ['media/'], delete: ['pending/', 'media/'] },
      sendTo: ['mail'],
      mailer: true,
      secrets: ['buddypressSource'],
    },
    memoryMb: 1024,
    timeoutSeconds: 10,
  },
  {
    operationId: 'readBucket',
    method: 'PUT',
    path: '/media/{id}',
    access: 'owner',
    entry: 'x.ts',
    grants: { bucket: { read: ['media/'] } },
  },
  {
    operationId: 'startMigration',
    method: 'DELETE',
    path: '/migrations/{id}',
    access: 'administrator',
    entry: 'x.ts',
    grants: { sendTo: ['migration'], secrets: ['passwordPepper'] },
  },
];

export const SYNTHETIC_QUEUES: readonly QueueEntry[] = [
  {
    name: 'mail',
    entry: 'w.ts',
    grants: { table: 'read', mailer: true },
    batchSize: 10,
    timeoutSeconds: 30,
    maxReceiveCount: 5,
    maxConcurrency: 2,
  },
  {
    name: 'migration',
    entry: 'w.ts',
    grants: { table: 'readWrite', secrets: ['buddypressSource'] },
    batchSize: 1,
    timeoutSeconds: 900,
    maxReceiveCount: 3,
  },
];

/** The synthetic routes as two domains, so the cross-stack wiring of routes on the shared API is exercised. */
export const SYNTHETIC_DOMAINS: readonly RouteDomain[] = [
  { name: 'items', routes: SYNTHETIC_ROUTES.slice(0, 3) },
  { name: 'others', routes: SYNTHETIC_ROUTES.slice(3) },
];

export interface SynthesizedApp {
  readonly app: App;
  readonly routes: readonly RouteEntry[];
  readonly queues: readonly QueueEntry[];
  readonly stacks: ReturnType<typeof createStacks>;
  readonly templates: {
    data: Template;
    /** The API stack and every domain's routes stack as one template (their logical ids never collide). */
    api: Template;
    workers: Template | undefined;
    monitoring: Template;
  };
  /** Every stack's template by stack name. */
  readonly byStack: ReadonlyMap<string, Template>;
  readonly functions: ReturnType<typeof allFunctionSpecs>;
}

export function synthApp(catalogue: 'real' | 'synthetic', stage: 'dev' | 'prod' = 'dev'): SynthesizedApp {
  const routeDomains = catalogue === 'real' ? ROUTE_DOMAINS : SYNTHETIC_DOMAINS;
  const routes = routeDomains.flatMap((domain) => domain.routes);
  const queues = catalogue === 'real' ? QUEUES : SYNTHETIC_QUEUES;
  const app = new App({ context: { ...APP_CONTEXT } });
  const stacks = createStacks(app, stageConfig(stage, {}), { routeDomains, queues, bundle: false });
  const template = (stack: Stack) => Template.fromStack(stack);
  const apiStacks = [stacks.api, ...stacks.routeStacks.values()];
  const all = [stacks.data, ...apiStacks, stacks.monitoring, ...(stacks.workers ? [stacks.workers] : [])];
  return {
    app,
    routes,
    queues,
    stacks,
    byStack: new Map(all.map((stack) => [stack.stackName, template(stack)])),
    templates: {
      data: template(stacks.data),
      api: mergedTemplate(apiStacks.map(template)),
      workers: stacks.workers && template(stacks.workers),
      monitoring: template(stacks.monitoring),
    },
    functions: allFunctionSpecs(routes, queues, FALLBACK_ROUTE),
  };
}

function mergedTemplate(templates: readonly Template[]): Template {
  const merged = { Resources: {} as Record<string, unknown>, Outputs: {} as Record<string, unknown> };
  for (const template of templates) {
    const json = template.toJSON() as { Resources?: object; Outputs?: object };
    for (const [id, resource] of Object.entries(json.Resources ?? {})) {
      if (id in merged.Resources && id !== 'CDKMetadata')
        throw new Error(`logical id ${id} in two API stacks`);
      merged.Resources[id] = resource;
    }
    Object.assign(merged.Outputs, json.Outputs ?? {});
  }
  return Template.fromJSON(merged);
}

export type CfnResource = {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

export function resources(template: Template, type?: string): Record<string, CfnResource> {
  const all = template.toJSON().Resources as Record<string, CfnResource>;
  return Object.fromEntries(Object.entries(all).filter(([, r]) => !type || r.Type === type));
}
