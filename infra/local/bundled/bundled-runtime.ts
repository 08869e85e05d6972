import { randomBytes } from 'node:crypto';
import { API_BASE_PATH } from '../../../shared/catalogue/index.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../emulators.ts';
import type { GatewayInvocation, MountedRoute } from '../mounted-routes.ts';
import type { ProvisionedStack } from '../provision.ts';
import { readCloudAssembly } from './assembly.ts';
import { type AwsFront, type Principal, startAwsFront } from './aws-front.ts';
import { type FunctionPool, startFunctionPool } from './function-pool.ts';
import { createIamCheck } from './iam-check.ts';
import { synthesizedPolicies } from './iam-policies.ts';
import { startLocalCdn } from './local-cdn.ts';
import { localAttribute, localSecretArn } from './local-values.ts';
import { createResolver } from './resolve-intrinsics.ts';
import {
  type SynthesizedFunction,
  synthesizedEventSources,
  synthesizedFunctions,
  synthesizedRoutes,
} from './synthesized-functions.ts';
import { secretValues } from './secret-values.ts';

/**
 * The bundled mode's half of the local stack: everything the cloud would run, read from a synthesized assembly
 * (`cdk synth -c nativeTarget=host`). Each function runs from its asset in processes of its own (function-pool.ts),
 * with exactly its template's environment (references resolved to the local resources), its memory, timeout and
 * reserved concurrency, and credentials of its own; the one local addition is `AWS_ENDPOINT_URL`, the AWS front,
 * where each of its SDK calls is held to its synthesized IAM policy. Routes, authorizers and queue consumers are
 * the synthesized API's and event source mappings, not the catalogue's.
 */
export interface BundledRuntimeOptions {
  readonly assemblyDir: string;
  readonly logDir: string;
  readonly provisioned: ProvisionedStack;
  readonly upstream: {
    readonly dynamodb: string;
    readonly s3: string;
    readonly sqs: string;
    readonly ses: string;
  };
  /** The local stack's own environment: secret values come from it. */
  readonly environment: Readonly<Record<string, string>>;
  /** The port the gateway will listen on (the API's endpoint resolves to it). */
  readonly gatewayPort: number;
}

export interface BundledRuntime {
  readonly mounted: { readonly routes: readonly MountedRoute[]; readonly fallback: MountedRoute };
  /** Queue consumers by catalogue queue name, as the event source mappings configure them. */
  readonly consumers: ReadonlyMap<
    string,
    {
      readonly fn: SynthesizedFunction;
      readonly batchSize: number;
      readonly maxConcurrency: number | undefined;
    }
  >;
  readonly front: AwsFront;
  readonly pool: FunctionPool;
  readonly functions: readonly SynthesizedFunction[];
  stop(): Promise<void>;
}

const ACCOUNT = '000000000000';

export async function startBundledRuntime(options: BundledRuntimeOptions): Promise<BundledRuntime> {
  const assembly = readCloudAssembly(options.assemblyDir);
  const { provisioned } = options;
  const cdn = await startLocalCdn(options.upstream.s3, provisioned.bucketName);
  const byName = <T>(entries: readonly (readonly [string, T])[]) => new Map(entries);
  const local = {
    region: LOCAL_REGION,
    account: ACCOUNT,
    tableName: provisioned.tableName,
    bucketName: provisioned.bucketName,
    queues: byName(provisioned.queues.map((q) => [q.entry.name, { url: q.url, arn: q.arn }] as const)),
    deadLetterQueues: byName(
      provisioned.queues.map((q) => [q.entry.name, { url: q.deadLetterUrl, arn: q.deadLetterArn }] as const),
    ),
    gatewayOrigin: `http://127.0.0.1:${options.gatewayPort}`,
    cdnHost: cdn.host,
  };
  const resolver = createResolver(assembly, localAttribute(local), local);
  const functions = synthesizedFunctions(assembly, resolver);
  const routes = synthesizedRoutes(assembly, resolver, functions);
  const eventSources = synthesizedEventSources(assembly, resolver, functions);
  const iam = createIamCheck(synthesizedPolicies(assembly, resolver), ACCOUNT, LOCAL_REGION);

  // Each function signs with keys of its own, as each Lambda role's session does; the stack itself (and tests,
  // and the CLI) use the local administrator's.
  const credentials = new Map<
    string,
    { accessKeyId: string; secretAccessKey: string; sessionToken: string }
  >();
  const principals = new Map<string, Principal>([
    [LOCAL_CREDENTIALS.accessKeyId, { secretAccessKey: LOCAL_CREDENTIALS.secretAccessKey }],
  ]);
  for (const fn of functions) {
    const key = {
      accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64url'),
      sessionToken: randomBytes(32).toString('base64url'),
    };
    credentials.set(fn.name, key);
    principals.set(key.accessKeyId, { secretAccessKey: key.secretAccessKey, fn });
  }
  const queueArnByUrlPath = new Map(
    provisioned.queues.flatMap((q) => [
      [new URL(q.url).pathname, q.arn],
      [new URL(q.deadLetterUrl).pathname, q.deadLetterArn],
    ]),
  );
  const secrets = secretValues(options.environment);
  // Refusals by function, so each invocation can report those made while it ran.
  const denials = new Map<string, { at: number; text: string }[]>();
  const front = await startAwsFront({
    upstream: options.upstream,
    principals,
    iam,
    arns: {
      region: LOCAL_REGION,
      account: ACCOUNT,
      queueArn: (url) =>
        queueArnByUrlPath.get(new URL(url).pathname) ??
        `arn:aws:sqs:${LOCAL_REGION}:${ACCOUNT}:${url.split('/').pop()}`,
      mailIdentity: (source) =>
        `arn:aws:ses:${LOCAL_REGION}:${ACCOUNT}:identity/${mailIdentityOf(assembly, source)}`,
    },
    onDenied: (fn, text) => {
      const list = denials.get(fn.name) ?? [];
      list.push({ at: Date.now(), text });
      denials.set(fn.name, list.slice(-20));
    },
    secretValue: (arn) => {
      const name = Object.keys(secrets).find((secret) => localSecretArn(local, secret) === arn);
      return name === undefined ? undefined : secrets[name];
    },
  });

  const pool = await startFunctionPool({
    logDir: options.logDir,
    environmentOf: (fn, runtimeApi) => {
      const key = credentials.get(fn.name);
      if (!key) throw new Error(`no credentials for ${fn.name}`);
      return {
        ...fn.environment,
        AWS_REGION: LOCAL_REGION,
        AWS_DEFAULT_REGION: LOCAL_REGION,
        AWS_ACCESS_KEY_ID: key.accessKeyId,
        AWS_SECRET_ACCESS_KEY: key.secretAccessKey,
        AWS_SESSION_TOKEN: key.sessionToken,
        AWS_LAMBDA_FUNCTION_NAME: fn.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
        AWS_LAMBDA_LOG_STREAM_NAME: `local/${fn.name}`,
        AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
        AWS_LAMBDA_RUNTIME_API: runtimeApi,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        LAMBDA_TASK_ROOT: fn.codeDir,
        _HANDLER: fn.handler,
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        // The one local addition: every AWS call of the function goes to the AWS front.
        AWS_ENDPOINT_URL: front.endpoint,
      };
    },
  });

  const invoker =
    (fn: SynthesizedFunction) =>
    async <R>(event: unknown, waitMs: number) => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<GatewayInvocation<R>>((done) => {
        timer = setTimeout(() => done({ outcome: 'timeout' }), waitMs);
      });
      const started = Date.now();
      try {
        const result = await Promise.race([pool.invoke<R>(fn, event), waited]);
        const refused = (denials.get(fn.name) ?? []).filter((denial) => denial.at >= started);
        if (result.outcome !== 'ok' || refused.length === 0) return result;
        return { ...result, accessDenied: [...new Set(refused.map((denial) => denial.text))].join(' | ') };
      } finally {
        clearTimeout(timer);
      }
    };
  const mount = (route: (typeof routes)[number]): MountedRoute => {
    const [method = 'ANY', path = ''] = route.routeKey === '$default' ? [] : route.routeKey.split(' ');
    return {
      method,
      path: path.slice(API_BASE_PATH.length),
      routeKey: route.routeKey,
      name: route.function.name,
      invoke: invoker(route.function),
      ...(route.authorizer ? { authorizer: invoker(route.authorizer) } : {}),
    };
  };
  const fallback = routes.find((route) => route.routeKey === '$default');
  if (!fallback) throw new Error('the synthesized API has no $default route');

  const consumers = new Map<
    string,
    { fn: SynthesizedFunction; batchSize: number; maxConcurrency: number | undefined }
  >();
  for (const source of eventSources) {
    const queue = provisioned.queues.find((q) => q.arn === source.queueArn);
    if (!queue) throw new Error(`event source on ${source.queueArn}, which is not provisioned locally`);
    // Lambda's event source mapping polls with the function's role: it must be allowed to.
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']) {
      const decision = await iam.check(source.function, { action, resource: source.queueArn });
      if (!decision.allowed)
        throw new Error(`${source.function.name} cannot consume its queue: ${decision.message}`);
    }
    consumers.set(queue.entry.name, {
      fn: source.function,
      batchSize: source.batchSize,
      maxConcurrency: source.maxConcurrency,
    });
  }

  return {
    mounted: { routes: routes.filter((route) => route !== fallback).map(mount), fallback: mount(fallback) },
    consumers,
    front,
    pool,
    functions,
    async stop() {
      await pool.stop();
      await Promise.allSettled([front.close(), cdn.close()]);
    },
  };
}

/** The SES identity a sender address sends as: a verified domain identity of its domain, else the address. */
function mailIdentityOf(assembly: ReturnType<typeof readCloudAssembly>, source: string): string {
  const address = source.replace(/^.*<([^>]+)>.*$/, '$1').trim();
  const identities = assembly.stacks.flatMap((stack) =>
    Object.values(stack.resources)
      .filter((resource) => resource.Type === 'AWS::SES::EmailIdentity')
      .map((resource) => String(resource.Properties?.EmailIdentity)),
  );
  const domain = address.split('@')[1] ?? '';
  return identities.includes(address) ? address : identities.includes(domain) ? domain : address;
}
