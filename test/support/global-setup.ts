/**
 * vitest globalSetup for the `integration` and `api` projects: starts the whole local stack (infra/local/stack.ts:
 * DynamoDB Local in memory, fauxqs for SQS + S3, the SES emulator, the local gateway and the SQS poller) on free
 * loopback ports with uniquely named resources, and a MariaDB server of its own (the migrations' source), then hands it to tests twice: `inject('stack')` / `inject('apiUrl')`
 * / `inject('sesUrl')`, and the function environment in `process.env` (which the forked test workers inherit, so
 * domain code called from a test reads the same names it reads in Lambda).
 *
 * Each project runs its own globalSetup, so when both projects run, this module is evaluated twice in the main
 * process. The running stack is therefore kept on `globalThis` with a reference count: emulators start once per
 * vitest process and stop when the last project tears down.
 */
import { randomBytes } from 'node:crypto';
// Type-only: makes 'vitest' resolvable for the augmentation below without loading it into the main process.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import type { QueueName } from '../../shared/catalogue/index.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalAssembly } from '../../infra/local/bundled/local-assembly.ts';
import { generatePepper, type LocalStack, startLocalStack } from '../../infra/local/stack.ts';
import { beginTestMariaDb, type TestMariaDb } from './private-mariadb.ts';

/** What tests get from `inject('stack')`; plain data (it crosses into worker processes). */
export interface LocalStackInfo {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  readonly sqsEndpoint: string;
  readonly sesEndpoint: string;
  readonly tableName: string;
  readonly bucketName: string;
  /** Prefix of every queue this run created; tests creating extra queues should use it too. */
  readonly queuePrefix: string;
  readonly queueUrls: Partial<Record<QueueName, string>>;
  readonly deadLetterQueueUrls: Partial<Record<QueueName, string>>;
  /** The function environment (names from shared/config/env.ts), also written into `process.env`. */
  readonly environment: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: LocalStackInfo;
    /** The local gateway's base URL, e.g. `http://127.0.0.1:41234/v2`. */
    apiUrl: string;
    /** The SES emulator: its JSON mail store is `${sesUrl}/store`. */
    sesUrl: string;
  }
}

interface SharedStack {
  users: number;
  ready: Promise<{ stack: LocalStack; mariadb: TestMariaDb }>;
}

const KEY = Symbol.for('community-api.test.local-stack');
type WithStack = typeof globalThis & { [KEY]?: Partial<Record<StackMode, SharedStack>> };

/**
 * `bundled`: projects named `*-bundled` run against the bundled mode (infra/local/bundled/): what `cdk synth`
 * produced, each function in its own processes under its synthesized IAM policy. Their stack is separate from the
 * in-process one, so both kinds of project can run in one vitest process.
 */
type StackMode = 'in-process' | 'bundled';
const modeOf = (project: TestProject): StackMode =>
  project.name.endsWith('-bundled') ? 'bundled' : 'in-process';

/** Tests must never reach a real AWS endpoint: everything they are given must be loopback. */
function assertLoopback(name: string, endpoint: string): void {
  const host = new URL(endpoint).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`Refusing to run tests: ${name} endpoint ${endpoint} is not on the loopback interface`);
  }
}

async function startStack(mode: StackMode): Promise<{ stack: LocalStack; mariadb: TestMariaDb }> {
  const run = randomBytes(4).toString('hex');
  const bundled =
    mode === 'bundled'
      ? {
          assemblyDir: await ensureLocalAssembly(undefined, (line) => process.stderr.write(`${line}\n`)),
          logDir: join(tmpdir(), `community-bundled-${run}`),
        }
      : undefined;
  if (bundled) process.stderr.write(`bundled mode: function logs in ${bundled.logDir}\n`);
  // The migration tests' BuddyPress source: a MariaDB server of this run's own (private-mariadb.ts), starting
  // beside the stack (whose environment only needs its address).
  const mariadb = await beginTestMariaDb();
  const [mariadbReady, stackStarted] = await Promise.allSettled([
    mariadb.ready,
    startLocalStack({
      ...(bundled ? { bundled } : {}),
      port: 0,
      names: {
        table: `community-test-${run}`,
        bucket: `community-media-test-${run}`,
        queuePrefix: `community-test-${run}`,
      },
      pepper: generatePepper(),
      // Redeliveries after a failed batch within seconds, so retry and DLQ tests stay fast.
      pollerVisibilitySeconds: 1,
      // The migration tests load a generated BuddyPress database here (a non-wp_ prefix).
      buddypressUrl: `${mariadb.url}/community_bp_test_${run}`,
      buddypressTablePrefix: 'bpt_',
    }),
  ]);
  if (stackStarted.status === 'rejected' || mariadbReady.status === 'rejected') {
    if (stackStarted.status === 'fulfilled') await stackStarted.value.stop();
    await mariadb.stop();
    throw stackStarted.status === 'rejected'
      ? stackStarted.reason
      : (mariadbReady as PromiseRejectedResult).reason;
  }
  const stack = stackStarted.value;
  try {
    for (const [name, endpoint] of Object.entries({
      ...stack.endpoints,
      api: stack.apiUrl,
      mariadb: mariadb.url,
    })) {
      assertLoopback(name, endpoint);
    }
    for (const url of [
      ...Object.values(stack.provisioned.queueUrls),
      ...Object.values(stack.provisioned.deadLetterQueueUrls),
    ]) {
      if (url) assertLoopback('queue', url);
    }
  } catch (error) {
    await stack.stop();
    await mariadb.stop();
    throw error;
  }
  return { stack, mariadb };
}

function infoOf(stack: LocalStack): LocalStackInfo {
  return {
    dynamodbEndpoint: stack.endpoints.dynamodb,
    s3Endpoint: stack.endpoints.s3,
    sqsEndpoint: stack.endpoints.sqs,
    sesEndpoint: stack.endpoints.ses,
    tableName: stack.provisioned.tableName,
    bucketName: stack.provisioned.bucketName,
    queuePrefix: stack.names.queuePrefix,
    queueUrls: stack.provisioned.queueUrls,
    deadLetterQueueUrls: stack.provisioned.deadLetterQueueUrls,
    environment: stack.environment,
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as WithStack;
  const mode = modeOf(project);
  holder[KEY] ??= {};
  const stacks = holder[KEY];
  if (!stacks[mode]) stacks[mode] = { users: 0, ready: startStack(mode) };
  const shared = stacks[mode];
  shared.users += 1;
  const { stack, mariadb } = await shared.ready;
  Object.assign(process.env, stack.environment);
  project.provide('stack', infoOf(stack));
  project.provide('apiUrl', stack.apiUrl);
  project.provide('sesUrl', stack.sesUrl);

  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete stacks[mode];
    await stack.stop();
    await mariadb.stop();
  };
}
