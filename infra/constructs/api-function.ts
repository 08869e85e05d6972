import path from 'node:path';
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type ICommandHooks,
  LogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DeployedEnvironment } from '../../shared/config/env.ts';
import { BUNDLE } from '../bundle-options.ts';
import { acknowledge, acknowledgePattern } from '../nag.ts';
import { type NativeTarget, nativeModuleHooks } from './native-modules.ts';
import {
  type BucketAccess,
  type BucketPrefix,
  DEFAULT_MEMORY_MB,
  DEFAULT_TIMEOUT_SECONDS,
  type Grants,
  type NativeModule,
  queueUrlVariable,
  SECRETS,
  type SecretName,
} from '../../shared/catalogue/index.ts';

/** The repository root: entries in the catalogue are relative to it, and esbuild resolves from it. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** Stand-in code when bundling is off: template assertions need a function, not its code. */
const STUB_CODE = 'exports.handler = async () => { throw new Error("bundling was disabled at synth"); };';

/** Bundling hooks that copy files beside the bundled code (by base name), where the function reads them. */
function copyBeside(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map((file) => `cp "${path.join(inputDir, file)}" "${path.join(outputDir, path.basename(file))}"`),
  };
}

/** Several bundling hooks as one: the bundling takes a single `commandHooks`. */
function chainHooks(hooks: readonly ICommandHooks[]): ICommandHooks {
  return {
    beforeBundling: (inputDir, outputDir) =>
      hooks.flatMap((hook) => hook.beforeBundling(inputDir, outputDir)),
    beforeInstall: (inputDir, outputDir) => hooks.flatMap((hook) => hook.beforeInstall(inputDir, outputDir)),
    afterBundling: (inputDir, outputDir) => hooks.flatMap((hook) => hook.afterBundling(inputDir, outputDir)),
  };
}

/** Everything the catalogue's grants can name, as the data stack exposes it. */
/** What a function with the catalogue grant `live` is given (infra/constructs/live-api.ts). */
export interface LiveConnectionsAccess {
  /** `wss://<api>.execute-api.<region>.amazonaws.com/live` (the functions post over HTTPS to the same host). */
  readonly endpoint: string;
  /** `arn:…:execute-api:<region>:<account>:<api>/live/POST/@connections/*` and the other methods. */
  readonly connectionsArn: string;
}

export interface GrantableResources {
  readonly table: ITable;
  readonly bucket: IBucket;
  /** Base URL of the media CDN; functions that store files build their public URLs on it. */
  readonly mediaPublicBaseUrl: string;
  /** `MEDIA_CDN_KEY_PAIR_ID` of the functions granted `mediaSigningKey`; undefined = presigned S3 GETs. */
  readonly mediaCdnKeyPairId?: string | undefined;
  /** A catalogued queue by name; throws at synth for a name that is not catalogued. */
  queue(name: string): IQueue;
  /** ARN of the SES identity the stage sends from. */
  readonly mailIdentityArn: string;
  readonly secrets: Readonly<Record<SecretName, ISecret>>;
  /** The BuddyPress uploads bucket the stage names (`sourceUploads` grants), if any. */
  readonly sourceUploadsBucket: string | undefined;
}

type EnvName = keyof DeployedEnvironment;

export interface ApiFunctionProps {
  /** Entry file relative to the repository root (a catalogue entry's `entry`). */
  readonly entry: string;
  /** Physical function name (see infra/naming.ts). */
  readonly functionName: string;
  /**
   * Memory in MB.
   * @default DEFAULT_MEMORY_MB (512)
   */
  readonly memoryMb?: number;
  /**
   * Timeout in seconds.
   * @default DEFAULT_TIMEOUT_SECONDS (29)
   */
  readonly timeoutSeconds?: number;
  /** Reserved concurrency; undefined = none (the function shares the account's unreserved pool). */
  readonly reservedConcurrency?: number | undefined;
  /** Variables every function gets; grant-specific ones (bucket, queue URLs, secret ids) are added by `bind*`. */
  readonly environment: Pick<
    DeployedEnvironment,
    'STAGE' | 'TABLE_NAME' | 'MAIL_FROM' | 'CORS_ORIGINS' | 'LOG_LEVEL' | 'PUBLIC_BASE_URL'
  >;
  /**
   * Retention of the function's log group.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * Bundle the entry with esbuild; `false` uses an inline stub (template-only synths and infra tests).
   * @default true
   */
  readonly bundle?: boolean;
  /** Native packages installed into this function's asset for linux-arm64 instead of bundled. */
  readonly nativeModules?: readonly NativeModule[];
  /**
   * Whose binaries the native packages are (see native-modules.ts).
   * @default 'lambda'
   */
  readonly nativeTarget?: NativeTarget;
  /** Files (from the repository root) copied beside the bundled code, which reads them at run time. */
  readonly bundleFiles?: readonly string[];
}

/**
 * The one recipe for every Lambda function (routes, workers, the authorizer): Node 24 on arm64, active tracing,
 * its own log group, an environment typed from `DeployedEnvironment`, the shared esbuild options, and a role
 * that starts with nothing but log writes. Access to data is added only through the `bind*` helpers, which the
 * stacks call from the catalogue entry's `grants`, so a function can touch exactly what its entry names.
 */
export class ApiFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);

    // Logs are disposable with the stack; a generated name avoids collisions when a stack is re-created.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role instead of the default one: the default attaches AWSLambdaBasicExecutionRole (logs on `*`);
    // this one may only write to its own log group.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    const common = {
      functionName: props.functionName,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      role: this.role,
      environment: { ...props.environment },
      ...(props.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrency }),
    } satisfies Partial<lambda.FunctionProps>;

    const hooks = [
      ...(props.nativeModules?.length
        ? [nativeModuleHooks(props.nativeModules, PROJECT_ROOT, props.nativeTarget)]
        : []),
      ...(props.bundleFiles?.length ? [copyBeside(props.bundleFiles)] : []),
    ];
    this.function =
      props.bundle === false
        ? new lambda.Function(this, 'Function', {
            ...common,
            handler: 'index.handler',
            code: lambda.Code.fromInline(STUB_CODE),
          })
        : new NodejsFunction(this, 'Function', {
            ...common,
            entry: path.join(PROJECT_ROOT, props.entry),
            handler: 'handler',
            projectRoot: PROJECT_ROOT,
            depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
            bundling: {
              // The local esbuild from node_modules: synth needs no Docker.
              forceDockerBundling: false,
              // esbuild says nothing but warnings and errors (not each bundle's size: a hundred functions).
              logLevel: LogLevel.WARNING,
              format: OutputFormat.ESM,
              minify: BUNDLE.minify,
              sourceMap: true,
              sourceMapMode: SourceMapMode.EXTERNAL,
              sourcesContent: BUNDLE.sourcesContent,
              target: BUNDLE.target,
              mainFields: [...BUNDLE.mainFields],
              banner: BUNDLE.banner,
              externalModules: [...BUNDLE.external, ...(props.nativeModules ?? [])],
              ...(hooks.length ? { commandHooks: chainHooks(hooks) } : {}),
            },
          });

    // X-Ray's PutTraceSegments/PutTelemetryRecords cannot be scoped to a resource (AWS-mandated `*`).
    acknowledge(
      this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions; AWS requires "*".',
    );
  }

  private setEnv(name: EnvName, value: string): void {
    this.function.addEnvironment(name, value);
  }

  /** Grants the resources a catalogue entry names, and nothing else. */
  bindGrants(grants: Grants, resources: GrantableResources): void {
    if (grants.table) this.bindTable(resources.table, grants.table);
    if (grants.bucket) this.bindBucket(resources.bucket, grants.bucket, resources.mediaPublicBaseUrl);
    if (grants.sendTo?.length)
      this.bindQueues(grants.sendTo.map((name) => [name, resources.queue(name)] as const));
    if (grants.mailer) this.bindMailer(resources.mailIdentityArn);
    if (grants.secrets?.length) {
      this.bindSecrets(grants.secrets.map((name) => [name, resources.secrets[name]] as const));
    }
    if (grants.sourceUploads && resources.sourceUploadsBucket) {
      this.bindSourceUploads(resources.sourceUploadsBucket);
    }
  }

  /**
   * Posting to and closing connections of the live WebSocket API, nothing else: `execute-api:ManageConnections` on
   * that API's stage's `@connections` only, and the management endpoint in `LIVE_CONNECTIONS_ENDPOINT`.
   */
  bindLiveConnections(live: LiveConnectionsAccess): void {
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ManageLiveConnections',
        actions: ['execute-api:ManageConnections'],
        resources: [live.connectionsArn],
      }),
    );
    this.setEnv('LIVE_CONNECTIONS_ENDPOINT', live.endpoint);
    acknowledgePattern(this.role, {
      pattern: /^AwsSolutions-IAM5\[Resource::.*\/live\/\*\/@connections\/\*\]$/,
      reason: "Connection ids are made at run time: any connection of the live API's stage, nothing else.",
    });
  }

  /**
   * Listing and reading objects of the BuddyPress uploads bucket, nothing else (no writes, no bucket settings):
   * `s3:ListBucket` on the bucket, `s3:GetObject` on its objects. The bucket is not ours, so its ARN is built from
   * its name rather than imported.
   */
  bindSourceUploads(bucketName: string): void {
    const bucketArn = `arn:${Aws.PARTITION}:s3:::${bucketName}`;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ListSourceUploads',
        actions: ['s3:ListBucket'],
        resources: [bucketArn],
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadSourceUploads',
        actions: ['s3:GetObject'],
        resources: [`${bucketArn}/*`],
      }),
    );
    acknowledge(
      this.role,
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketName}/*]`,
      'Avatars and covers are read by key under the BuddyPress uploads bucket the stage names; read only, that bucket only.',
    );
  }

  /**
   * Item reads (`read`) or reads and writes (`readWrite`) on the table and its indexes, never `Scan`: CDK's read
   * grants include it, so an explicit Deny (which wins over any Allow) keeps every access a key condition.
   */
  bindTable(table: ITable, mode: 'read' | 'readWrite'): void {
    if (mode === 'read') table.grantReadData(this.function);
    else table.grantReadWriteData(this.function);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'NoTableScans',
        effect: iam.Effect.DENY,
        actions: ['dynamodb:Scan'],
        resources: [table.tableArn, `${table.tableArn}/index/*`],
      }),
    );
    acknowledgePattern(this.role, {
      pattern: /^AwsSolutions-IAM5\[Resource::.*\/index\/\*\]$/,
      reason: 'Queries on the GSIs need the table\'s "index/*" sub-resources; still this one table only.',
    });
  }

  /**
   * Exactly the catalogue's access to the media bucket, per key prefix: `s3:GetObject`, `s3:PutObject` and
   * `s3:DeleteObject` on `<bucket>/<prefix>*`, and for readers `s3:ListBucket` on the bucket (without it S3 answers
   * a missing key with 403 instead of 404). Sets `MEDIA_BUCKET` and the CDN's URL.
   */
  bindBucket(bucket: IBucket, access: BucketAccess, publicBaseUrl: string): void {
    const objects = (prefixes: readonly BucketPrefix[]) =>
      prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`));
    const statements: [string, string, readonly BucketPrefix[] | undefined][] = [
      ['ReadMedia', 's3:GetObject', access.read],
      ['WriteMedia', 's3:PutObject', access.write],
      ['DeleteMedia', 's3:DeleteObject', access.delete],
    ];
    for (const [sid, action, prefixes] of statements) {
      if (!prefixes?.length) continue;
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid, actions: [action], resources: objects(prefixes) }),
      );
    }
    if (access.read?.length) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'ListMedia',
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
        }),
      );
    }
    this.setEnv('MEDIA_BUCKET', bucket.bucketName);
    this.setEnv('MEDIA_PUBLIC_BASE_URL', publicBaseUrl);
    acknowledgePattern(this.role, {
      pattern: /^AwsSolutions-IAM5\[Resource::.*\/(pending|media|private)\/\*\]$/,
      reason:
        'Object keys are generated per media item (pending/<id>, media/<id>-<random>/…, private/<id>-<random>/… for members-only spaces); the grant is one action on one key prefix of the media bucket.',
    });
  }

  /** `sqs:SendMessage` (and its batch/attribute companions) on these queues only; sets `QUEUE_URL_<NAME>`. */
  bindQueues(queues: readonly (readonly [string, IQueue])[]): void {
    for (const [name, queue] of queues) {
      queue.grantSendMessages(this.function);
      this.setEnv(queueUrlVariable(name) as EnvName, queue.queueUrl);
    }
  }

  /** Sending mail through SES as the stage's identity, and as nothing else. */
  bindMailer(identityArn: string): void {
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: [identityArn] }),
    );
  }

  /** Reading these secrets only; sets each secret's `*_SECRET_ID` variable. */
  bindSecrets(secrets: readonly (readonly [SecretName, ISecret])[]): void {
    for (const [name, secret] of secrets) {
      secret.grantRead(this.function);
      this.setEnv(SECRETS[name].idVariable, secret.secretArn);
    }
  }
}
