import { Aws } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import {
  type BucketAccess,
  type BucketPrefix,
  type Grants,
  queueUrlVariable,
  SECRETS,
  type SecretName,
} from '../../shared/catalogue/index.ts';
import type { DeployedEnvironment } from '../../shared/config/env.ts';
import { acknowledge, acknowledgePattern } from '../nag.ts';

/**
 * How a function is given what its catalogue entry's grants name, and nothing else: each grant adds the policy
 * statements of exactly those resources to the function's own role and sets the variables that locate them.
 */

/** The function a grant is bound to: its own role and the function whose environment names the resources. */
export interface GrantTarget {
  readonly role: iam.Role;
  readonly function: lambda.Function;
}

type EnvName = keyof DeployedEnvironment;

/** Sets a variable the environment schema (shared/config/env.ts) declares, so a misspelt name does not compile. */
const setEnv = (target: GrantTarget, name: EnvName, value: string): void => {
  target.function.addEnvironment(name, value);
};

/** What a function with the catalogue grant `live` is given (infra/constructs/live-api.ts). */
export interface LiveConnectionsAccess {
  /** `wss://<api>.execute-api.<region>.amazonaws.com/live` (the functions post over HTTPS to the same host). */
  readonly endpoint: string;
  /** `arn:…:execute-api:<region>:<account>:<api>/live/POST/@connections/*` and the other methods. */
  readonly connectionsArn: string;
}

/** Everything the catalogue's grants can name, as the data stack exposes it. */
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

/** Grants the resources a catalogue entry names, and nothing else. */
/** Allows these actions on these resources to the function's role; `sid` names the statement in the policy. */
function allow(target: GrantTarget, sid: string | undefined, actions: string[], resources: string[]): void {
  target.role.addToPrincipalPolicy(new iam.PolicyStatement({ ...(sid ? { sid } : {}), actions, resources }));
}

export function bindGrants(target: GrantTarget, grants: Grants, resources: GrantableResources): void {
  if (grants.table) bindTable(target, resources.table, grants.table);
  if (grants.bucket) bindBucket(target, resources.bucket, grants.bucket, resources.mediaPublicBaseUrl);
  if (grants.sendTo?.length)
    bindQueues(
      target,
      grants.sendTo.map((name) => [name, resources.queue(name)] as const),
    );
  if (grants.mailer) bindMailer(target, resources.mailIdentityArn);
  if (grants.secrets?.length) {
    bindSecrets(
      target,
      grants.secrets.map((name) => [name, resources.secrets[name]] as const),
    );
  }
  if (grants.sourceUploads && resources.sourceUploadsBucket) {
    bindSourceUploads(target, resources.sourceUploadsBucket);
  }
}

/**
 * Posting to and closing connections of the live WebSocket API, nothing else: `execute-api:ManageConnections` on
 * that API's stage's `@connections` only, and the management endpoint in `LIVE_CONNECTIONS_ENDPOINT`.
 */
export function bindLiveConnections(target: GrantTarget, live: LiveConnectionsAccess): void {
  allow(target, 'ManageLiveConnections', ['execute-api:ManageConnections'], [live.connectionsArn]);
  setEnv(target, 'LIVE_CONNECTIONS_ENDPOINT', live.endpoint);
  acknowledgePattern(target.role, {
    pattern: /^AwsSolutions-IAM5\[Resource::.*\/live\/\*\/@connections\/\*\]$/,
    reason: "Connection ids are made at run time: any connection of the live API's stage, nothing else.",
  });
}

/**
 * Listing and reading objects of the BuddyPress uploads bucket, nothing else (no writes, no bucket settings):
 * `s3:ListBucket` on the bucket, `s3:GetObject` on its objects. The bucket is not ours, so its ARN is built from
 * its name rather than imported.
 */
function bindSourceUploads(target: GrantTarget, bucketName: string): void {
  const bucketArn = `arn:${Aws.PARTITION}:s3:::${bucketName}`;
  allow(target, 'ListSourceUploads', ['s3:ListBucket'], [bucketArn]);
  allow(target, 'ReadSourceUploads', ['s3:GetObject'], [`${bucketArn}/*`]);
  acknowledge(
    target.role,
    `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketName}/*]`,
    'Avatars and covers are read by key under the BuddyPress uploads bucket the stage names; read only, that bucket only.',
  );
}

/**
 * Item reads (`read`) or reads and writes (`readWrite`) on the table and its indexes, never `Scan`: CDK's read
 * grants include it, so an explicit Deny (which wins over any Allow) keeps every access a key condition.
 */
function bindTable(target: GrantTarget, table: ITable, mode: 'read' | 'readWrite'): void {
  if (mode === 'read') table.grantReadData(target.function);
  else table.grantReadWriteData(target.function);
  target.role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'NoTableScans',
      effect: iam.Effect.DENY,
      actions: ['dynamodb:Scan'],
      resources: [table.tableArn, `${table.tableArn}/index/*`],
    }),
  );
  acknowledgePattern(target.role, {
    pattern: /^AwsSolutions-IAM5\[Resource::.*\/index\/\*\]$/,
    reason: 'Queries on the GSIs need the table\'s "index/*" sub-resources; still this one table only.',
  });
}

/**
 * Exactly the catalogue's access to the media bucket, per key prefix: `s3:GetObject`, `s3:PutObject` and
 * `s3:DeleteObject` on `<bucket>/<prefix>*`, and for readers `s3:ListBucket` on the bucket (without it S3 answers
 * a missing key with 403 instead of 404). Sets `MEDIA_BUCKET` and the CDN's URL.
 */
function bindBucket(target: GrantTarget, bucket: IBucket, access: BucketAccess, publicBaseUrl: string): void {
  const objects = (prefixes: readonly BucketPrefix[]) =>
    prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`));
  const statements: [string, string, readonly BucketPrefix[] | undefined][] = [
    ['ReadMedia', 's3:GetObject', access.read],
    ['WriteMedia', 's3:PutObject', access.write],
    ['DeleteMedia', 's3:DeleteObject', access.delete],
  ];
  for (const [sid, action, prefixes] of statements) {
    if (prefixes?.length) allow(target, sid, [action], objects(prefixes));
  }
  if (access.read?.length) allow(target, 'ListMedia', ['s3:ListBucket'], [bucket.bucketArn]);
  setEnv(target, 'MEDIA_BUCKET', bucket.bucketName);
  setEnv(target, 'MEDIA_PUBLIC_BASE_URL', publicBaseUrl);
  acknowledgePattern(target.role, {
    pattern: /^AwsSolutions-IAM5\[Resource::.*\/(pending|media|private)\/\*\]$/,
    reason:
      'Object keys are generated per media item (pending/<id>, media/<id>-<random>/…, private/<id>-<random>/… for members-only spaces); the grant is one action on one key prefix of the media bucket.',
  });
}

/** `sqs:SendMessage` (and its batch/attribute companions) on these queues only; sets `QUEUE_URL_<NAME>`. */
function bindQueues(target: GrantTarget, queues: readonly (readonly [string, IQueue])[]): void {
  for (const [name, queue] of queues) {
    queue.grantSendMessages(target.function);
    setEnv(target, queueUrlVariable(name) as EnvName, queue.queueUrl);
  }
}

/** Sending mail through SES as the stage's identity, and as nothing else. */
function bindMailer(target: GrantTarget, identityArn: string): void {
  allow(target, undefined, ['ses:SendEmail', 'ses:SendRawEmail'], [identityArn]);
}

/** Reading these secrets only; sets each secret's `*_SECRET_ID` variable. */
function bindSecrets(target: GrantTarget, secrets: readonly (readonly [SecretName, ISecret])[]): void {
  for (const [name, secret] of secrets) {
    secret.grantRead(target.function);
    setEnv(target, SECRETS[name].idVariable, secret.secretArn);
  }
}
