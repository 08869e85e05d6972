import { closeBuddypressSource } from '../../shared/integrations/buddypress/connect.ts';
import { createHash, randomBytes } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { resetEnvCache } from '../../shared/config/env.ts';
import { resetPepperCache } from '../../shared/config/pepper.ts';
import { resetDbClient } from '../../shared/db/client.ts';
import { createSettingsCopies } from '../../shared/domain/settings/settings-repository.ts';
import { serveAppPage } from './app-pages.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import {
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  rememberedPort,
  type RunningEmulator,
  startFauxqs,
  startSesEmulator,
} from './emulators.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { prepareLambdaRuntime } from './lambda-runtime.ts';
import { type Poller, startPoller } from './poller.ts';
import { localEnvironment, type ProvisionedStack, provision } from './provision.ts';
import { startPendingSweep } from './pending-sweep.ts';
import { type AwsFront, startAwsFront } from './bundled/aws-front.ts';
import { type BundledRuntime, bundledConsumers, startBundledRuntime } from './bundled/index.ts';

/**
 * The whole local stack in one call, shared by `npm start` and the test global setup: emulators, the table,
 * bucket and queues from the cloud's definitions, the function environment, the gateway and the SQS poller.
 */
export interface LocalStackOptions {
  /** Keep data under this folder (survives restarts); in memory when absent. */
  readonly dataDir?: string;
  /** Gateway port; 0 picks a free one. */
  readonly port: number;
  readonly names: { readonly table: string; readonly bucket: string; readonly queuePrefix: string };
  readonly pepper: string;
  readonly corsOrigins?: string;
  /** Per-receive visibility override for the poller (tests shorten redelivery). */
  readonly pollerVisibilitySeconds?: number;
  /** The BuddyPress source (tests); else `BUDDYPRESS_URL` / `BUDDYPRESS_TABLE_PREFIX` from the environment. */
  readonly buddypressUrl?: string;
  readonly buddypressTablePrefix?: string;
  /** Where its avatars and covers are read (a folder, `file://` or `s3://`); else `BUDDYPRESS_UPLOADS_URL`. */
  readonly buddypressUploadsUrl?: string;
  /**
   * The bundled mode: run what this synthesized assembly deploys (infra/local/bundled/) instead of the catalogue's
   * modules in this process. Function logs go to `logDir`.
   */
  readonly bundled?: { readonly assemblyDir: string; readonly logDir: string };
}

export interface LocalStack {
  readonly apiUrl: string;
  /** The live WebSocket API: `ws://127.0.0.1:<port>/live`. */
  readonly liveUrl: string;
  readonly sesUrl: string;
  readonly endpoints: {
    readonly dynamodb: string;
    readonly s3: string;
    readonly sqs: string;
    readonly ses: string;
  };
  readonly provisioned: ProvisionedStack;
  readonly names: LocalStackOptions['names'];
  /** The function environment every handler and worker sees (also written into `process.env`). */
  readonly environment: Record<string, string>;
  readonly poller: Poller;
  readonly gateway: Gateway;
  /** The bundled mode's functions and processes, when the stack runs in it. */
  readonly bundled: BundledRuntime | undefined;
  /**
   * Resolves, saying what happened, when an emulator's process ends while the stack runs (DynamoDB Local killed
   * or crashed): every request would fail from then on. Never resolves otherwise, nor after `stop()`.
   */
  readonly failure: Promise<string>;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const emulators: RunningEmulator[] = [];
  let gateway: Gateway | undefined;
  let poller: Poller | undefined;
  let sweep: { stop(): void } | undefined;
  let front: AwsFront | undefined;
  let bundled: BundledRuntime | undefined;
  const stopAll = async () => {
    sweep?.stop();
    await poller?.stop().catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    await bundled?.stop().catch(() => undefined);
    await front?.close().catch(() => undefined);
    // The handlers' pool to the BuddyPress source would keep this process alive.
    await closeBuddypressSource();
    await Promise.allSettled(emulators.map((emulator) => emulator.stop()));
  };
  try {
    // Before any AWS SDK request: the SDK would otherwise create a single-context invocation store.
    await prepareLambdaRuntime();
    const [dynamodb, fauxqs, ses] = await Promise.all([
      freePort().then((port) =>
        startDynamoDbLocal({
          port,
          ...(options.dataDir ? { dataDir: join(options.dataDir, 'dynamodb') } : {}),
        }),
      ),
      freePort().then((port) =>
        startFauxqs({ port, ...(options.dataDir ? { dataDir: join(options.dataDir, 'fauxqs') } : {}) }),
      ),
      // A kept store keeps its inbox (mails and address) across restarts: its links are in people's hands.
      (options.dataDir ? rememberedPort(join(options.dataDir, 'ses')) : freePort()).then((port) =>
        startSesEmulator({ port, ...(options.dataDir ? { dataDir: join(options.dataDir, 'ses') } : {}) }),
      ),
    ]);
    emulators.push(dynamodb, fauxqs, ses);

    // S3 as functions and browsers reach it: the AWS front, which holds presigned POSTs to their policy.
    front = await startAwsFront({
      upstream: { dynamodb: dynamodb.endpoint, s3: fauxqs.endpoint, sqs: fauxqs.endpoint, ses: ses.endpoint },
      principals: new Map([
        [LOCAL_CREDENTIALS.accessKeyId, { secretAccessKey: LOCAL_CREDENTIALS.secretAccessKey }],
      ]),
      arns: {
        region: LOCAL_REGION,
        account: '000000000000',
        queueArn: (url) => url,
        mailIdentity: (from) => from,
      },
    });
    const provisioned = await provision({
      dynamodbEndpoint: dynamodb.endpoint,
      s3Endpoint: fauxqs.endpoint,
      sqsEndpoint: fauxqs.endpoint,
      tableName: options.names.table,
      bucketName: options.names.bucket,
      queuePrefix: options.names.queuePrefix,
    });
    const logLevel = process.env.LOG_LEVEL ?? 'warn';
    const environment = {
      ...localEnvironment({
        tableName: provisioned.tableName,
        bucketName: provisioned.bucketName,
        dynamodbEndpoint: dynamodb.endpoint,
        s3Endpoint: front.endpoint,
        sqsEndpoint: fauxqs.endpoint,
        sesEndpoint: ses.endpoint,
        queueUrls: provisioned.queueUrls,
      }),
      PASSWORD_PEPPER: options.pepper,
      // Stable across restarts of one local store (cursors in links stay valid), yet distinct from the pepper.
      CURSOR_KEY: createHash('sha256').update(`cursor-key:${options.pepper}`).digest('base64url'),
      CORS_ORIGINS: options.corsOrigins ?? '*',
      // The BuddyPress migration source (README): a MySQL URL and its table prefix, when the operator gives one.
      BUDDYPRESS_URL: options.buddypressUrl ?? process.env.BUDDYPRESS_URL ?? '',
      BUDDYPRESS_TABLE_PREFIX: options.buddypressTablePrefix ?? process.env.BUDDYPRESS_TABLE_PREFIX ?? 'wp_',
      BUDDYPRESS_UPLOADS_URL: uploadsLocation(
        options.buddypressUploadsUrl ?? process.env.BUDDYPRESS_UPLOADS_URL ?? '',
      ),
      LOG_LEVEL: logLevel,
      // EMF lines are for CloudWatch; locally they would drown the logs. Shown at debug, or when asked for.
      POWERTOOLS_METRICS_DISABLED:
        process.env.POWERTOOLS_METRICS_DISABLED ?? (logLevel === 'debug' ? 'false' : 'true'),
      STAGE: 'local',
    };
    // Handlers run in this process and parse the environment once; set it before the first one loads.
    Object.assign(process.env, environment);
    resetEnvCache();
    resetPepperCache();
    resetDbClient();
    // Settings are read from copies (settings-repository.ts); a new table gets them before the first request.
    await createSettingsCopies();

    // The pages behind e-mail links while no client app is configured (app-pages.ts), on the gateway's origin.
    let apiUrl = '';
    const pages: Parameters<typeof startGateway>[0]['pages'] = (request, url, response) =>
      serveAppPage(request, url, response, apiUrl);
    if (options.bundled) {
      const gatewayPort = options.port || (await freePort());
      bundled = await startBundledRuntime({
        ...options.bundled,
        provisioned,
        upstream: {
          dynamodb: dynamodb.endpoint,
          s3: fauxqs.endpoint,
          sqs: fauxqs.endpoint,
          ses: ses.endpoint,
        },
        environment,
        gatewayPort,
      });
      gateway = await startGateway({
        port: gatewayPort,
        corsOrigins: environment.CORS_ORIGINS,
        mounted: bundled.mounted,
        pages,
      });
    } else {
      gateway = await startGateway({ port: options.port, corsOrigins: environment.CORS_ORIGINS, pages });
    }
    apiUrl = gateway.url;
    // Links in responses (paginator URLs) are built from this configured URL, never from request headers. The
    // live API's management endpoint is the gateway's `/live`, as the cloud's is the live API's stage URL.
    const publicBaseUrl = {
      PUBLIC_BASE_URL: gateway.url,
      LIVE_CONNECTIONS_ENDPOINT: gateway.liveUrl.replace(/^ws:/, 'http:'),
    };
    Object.assign(environment, publicBaseUrl);
    Object.assign(process.env, publicBaseUrl);
    resetEnvCache();
    const visibility = options.pollerVisibilitySeconds
      ? { visibilityTimeoutSeconds: options.pollerVisibilitySeconds }
      : {};
    poller = bundled
      ? startPoller({ sqsEndpoint: fauxqs.endpoint, ...bundledConsumers(bundled, provisioned, visibility) })
      : startPoller({
          sqsEndpoint: fauxqs.endpoint,
          queues: provisioned.queues.map((queue) => ({ ...queue, ...visibility })),
        });
    // Uploads never completed expire here as the lifecycle rule and TTL expire them in the cloud.
    sweep = startPendingSweep();
    const runningGateway = gateway;
    const runningPoller = poller;
    return {
      apiUrl: runningGateway.url,
      liveUrl: runningGateway.liveUrl,
      sesUrl: ses.endpoint,
      endpoints: {
        dynamodb: dynamodb.endpoint,
        // S3 as functions and browsers reach it: through the AWS front (presigned POST policies).
        s3: front.endpoint,
        sqs: fauxqs.endpoint,
        ses: ses.endpoint,
      },
      provisioned,
      names: options.names,
      environment,
      poller: runningPoller,
      gateway: runningGateway,
      bundled,
      failure: Promise.race(emulators.flatMap((emulator) => emulator.unexpectedExit ?? [])),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * A relative uploads folder is taken from where the command was run (npm's INIT_CWD), as `--data-dir` is; URLs
 * (`file://`, `s3://`) and absolute paths pass unchanged.
 */
function uploadsLocation(value: string): string {
  if (value === '' || isAbsolute(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  return resolve(process.env.INIT_CWD ?? process.cwd(), value);
}

/** A fresh random pepper (tests; the first `npm start`, which then keeps it under .local/). */
export const generatePepper = (): string => randomBytes(32).toString('base64url');
