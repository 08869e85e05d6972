/**
 * The shapes of the route and queue catalogue, generic in the queue and secret names so the lists that define
 * those names can be checked against them (index.ts exports the concrete `RouteEntry`, `QueueEntry`, `Grants`). Plain data on purpose: no handler code, no SDK, no schema library,
 * so CDK (infra/), the local gateway and poller (infra/local/), the OpenAPI generator and runtime code (queue
 * publisher, environment schema) can all read the same lists without any of them importing the others.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route, as the contract states it. Only `public` skips authentication; every other level
 * requires a valid, active caller and the finer decision is made by the domain's permission module. The level is
 * also what the permission-matrix tests and the OpenAPI document read.
 */
export type AccessLevel =
  | 'public'
  | 'authenticated'
  | 'owner'
  | 'administrator'
  | 'community_admin'
  | 'course_admin'
  | 'space_moderator'
  | 'space_add_member'
  | 'enrolled_student'
  | 'privacy_gated';

/**
 * Key prefixes of the media bucket: `pending/` holds presigned uploads not yet verified, `media/` the verified
 * files the CDN serves, `private/` the verified files of private and secret spaces, which the CDN never serves
 * (reached only through short-lived signed URLs; shared/domain/media/media-objects.ts lays the keys out).
 */
export type BucketPrefix = 'pending/' | 'media/' | 'private/';

/**
 * What a function does with the media bucket, per key prefix: read (GetObject, and ListBucket on the bucket so a
 * missing key is a 404, not a 403), write (PutObject, which a presigned POST's signer needs too) and delete.
 */
export interface BucketAccess {
  readonly read?: readonly BucketPrefix[];
  readonly write?: readonly BucketPrefix[];
  readonly delete?: readonly BucketPrefix[];
}

/** The resources a function may touch; CDK grants exactly these and nothing else. */
export interface GrantsOf<Q extends string, S extends string> {
  readonly table?: 'read' | 'readWrite';
  readonly bucket?: BucketAccess;
  /** Queues this function sends to (names from the queue catalogue). */
  readonly sendTo?: readonly Q[];
  /** Sends e-mail through SES directly. */
  readonly mailer?: boolean;
  /** Secrets this function reads (names from the secret catalogue). */
  readonly secrets?: readonly S[];
  /**
   * Lists and reads the bucket a stage names for the BuddyPress uploads (`buddypressUploadsBucket` in
   * infra/config.ts); nothing when the stage names none (a folder location, or none configured).
   */
  readonly sourceUploads?: 'read';
  /**
   * Posts to (and closes) live WebSocket connections: `execute-api:ManageConnections` on the live API's
   * `@connections` only, and `LIVE_CONNECTIONS_ENDPOINT` in the environment. Every use case that announces on the
   * live channel (emits a notification, changes an unread count) needs it; without it the announcement is skipped.
   */
  readonly live?: 'post';
}

export interface RouteEntryOf<Q extends string, S extends string> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path under the `/v2` base, with `{name}` placeholders. */
  readonly path: string;
  readonly access: AccessLevel;
  /**
   * Entry file, relative to the repository root. Never written in a catalogue line (`RouteLineOf`): the catalogue
   * derives it from the route's domain and operation id (routes/entry-file.ts), under `.generated/` when the line
   * says `entry: 'generated'` (infra/generated-entries.ts writes it at build time).
   */
  readonly entry: string;
  readonly grants: GrantsOf<Q, S>;
  /** Lambda memory in MB; default 512 (CPU scales with memory, and the first-invoke time with it). */
  readonly memoryMb?: number;
  /** Lambda timeout in seconds; default 29 (the gateway's integration limit is 30 s). */
  readonly timeoutSeconds?: number;
  /**
   * Packages the function imports at run time (`await import()`): left out of the esbuild bundle and installed into
   * the function's asset for linux-arm64 (infra/constructs/native-modules.ts), so no other function carries them.
   * Native code (sharp), or a driver only the code that reads a source loads (mysql2). `npm run report:bundles`
   * counts them in the function's cold start.
   */
  readonly nativeModules?: readonly NativeModule[];
  /**
   * Files (paths from the repository root) the function reads at run time, copied beside its bundled code by
   * the CDK bundling (by base name); locally the function reads them where they are.
   */
  readonly bundleFiles?: readonly string[];
}

/**
 * A line of a domain's route list: a route without its entry file, which follows from the operation id. With
 * `entry: 'generated'` no entry file is written by hand: the build writes one that hands the contract's input to
 * the use case of the same name (infra/generated-entries.ts).
 */
export type RouteLineOf<Q extends string, S extends string> = Omit<RouteEntryOf<Q, S>, 'entry'> & {
  readonly entry?: 'generated';
};

/** Run-time packages a function may ship (sharp's native parts prebuilt for linux-arm64 by its publisher). */
export type NativeModule = 'sharp' | 'mysql2';

export interface QueueEntryOf<N extends string, Q extends string, S extends string> {
  readonly name: N;
  /** The worker's entry file, relative to the repository root. */
  readonly entry: string;
  readonly grants: GrantsOf<Q, S>;
  readonly batchSize: number;
  readonly timeoutSeconds: number;
  /** Deliveries before a message is moved to the queue's dead-letter queue. */
  readonly maxReceiveCount: number;
  readonly memoryMb?: number;
  /** Caps concurrent batches so a backlog cannot starve the API or exceed a downstream rate (SES). */
  readonly maxConcurrency?: number;
  /**
   * Reserved concurrency of the worker: at most this many run at once, whatever invokes them, so a long backlog
   * can never take the concurrency the API's functions need. At least `maxConcurrency` (else the event source
   * would be throttled). Undefined = none.
   */
  readonly reservedConcurrency?: number;
  /**
   * Age in seconds of the oldest waiting message that raises the queue's alarm.
   * @default DEFAULT_OLDEST_MESSAGE_ALARM_SECONDS (one hour)
   */
  readonly oldestMessageAlarmSeconds?: number;
  /** Native packages the worker needs at run time, as `RouteEntryOf.nativeModules`. */
  readonly nativeModules?: readonly NativeModule[];
}

/** The routes of the live WebSocket API (API Gateway's route selection keys). */
export type LiveRouteKey = '$connect' | '$disconnect' | '$default';

/** A route of the live WebSocket API: one Lambda each, as every HTTP route. */
export interface LiveRouteEntryOf<Q extends string, S extends string> {
  readonly routeKey: LiveRouteKey;
  /** Entry file, relative to the repository root. */
  readonly entry: string;
  readonly grants: GrantsOf<Q, S>;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
}

export const API_BASE_PATH = '/v2';
/** The live API's stage, so its URL path: `wss://<host>/live` in the cloud, `ws://127.0.0.1:<port>/live` locally. */
export const LIVE_STAGE = 'live';
export const DEFAULT_MEMORY_MB = 512;
export const DEFAULT_TIMEOUT_SECONDS = 29;
