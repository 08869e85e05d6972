/**
 * The route and queue catalogue: the single list of every HTTP route and every queue. CDK (functions, routes,
 * grants), the local gateway and poller, the OpenAPI document and the permission tests all read it; nothing
 * else wires an endpoint. It is plain data on purpose: no handler code, no SDK, no schema library.
 *
 * Adding an endpoint = a contract in shared/contracts, a use case in shared/domain, one line here, tests.
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

export type QueueName = 'mail' | 'migration';

export type SecretName = 'passwordPepper' | 'buddypressSource';

/** The resources a function may touch; CDK grants exactly these and nothing else. */
export interface Grants {
  readonly table?: 'read' | 'readWrite';
  readonly bucket?: 'read' | 'readWrite';
  /** Queues this function sends to. */
  readonly sendTo?: readonly QueueName[];
  /** Sends e-mail through SES directly. */
  readonly mailer?: boolean;
  readonly secrets?: readonly SecretName[];
}

export interface RouteEntry {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path under the `/v2` base, with `{name}` placeholders. */
  readonly path: string;
  readonly access: AccessLevel;
  /** Entry file, relative to the repository root. */
  readonly entry: string;
  readonly grants: Grants;
  /** Lambda memory in MB; default 512 (CPU scales with memory, and the first-invoke time with it). */
  readonly memoryMb?: number;
  /** Lambda timeout in seconds; default 29 (the gateway's integration limit is 30 s). */
  readonly timeoutSeconds?: number;
}

export interface QueueEntry {
  readonly name: QueueName;
  /** The worker's entry file, relative to the repository root. */
  readonly entry: string;
  readonly grants: Grants;
  readonly batchSize: number;
  readonly timeoutSeconds: number;
  /** Deliveries before a message is moved to the queue's dead-letter queue. */
  readonly maxReceiveCount: number;
  readonly memoryMb?: number;
  /** Caps concurrent batches so a backlog cannot starve the API or exceed a downstream rate (SES). */
  readonly maxConcurrency?: number;
}

export const API_BASE_PATH = '/v2';

export const ROUTES = [
  // Platform
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    entry: 'functions/http/platform/get-openapi-document.ts',
    grants: {},
  },
  // Notifications
  {
    operationId: 'listNotifications',
    method: 'GET',
    path: '/notifications',
    access: 'owner',
    entry: 'functions/http/notifications/list-notifications.ts',
    grants: { table: 'read' },
  },
  {
    operationId: 'listUnreadNotifications',
    method: 'GET',
    path: '/notifications/unread',
    access: 'owner',
    entry: 'functions/http/notifications/list-unread-notifications.ts',
    grants: { table: 'read' },
  },
  {
    operationId: 'markNotificationRead',
    method: 'POST',
    path: '/notifications/{id}/read',
    access: 'owner',
    entry: 'functions/http/notifications/mark-notification-read.ts',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'markAllNotificationsRead',
    method: 'POST',
    path: '/notifications/mark-all-read',
    access: 'owner',
    entry: 'functions/http/notifications/mark-all-notifications-read.ts',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'deleteNotification',
    method: 'DELETE',
    path: '/notifications/{id}',
    access: 'owner',
    entry: 'functions/http/notifications/delete-notification.ts',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'deleteAllNotifications',
    method: 'DELETE',
    path: '/notifications/delete-all',
    access: 'owner',
    entry: 'functions/http/notifications/delete-all-notifications.ts',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'getNotificationPreferences',
    method: 'GET',
    path: '/profile/notification-preferences',
    access: 'authenticated',
    entry: 'functions/http/notifications/get-notification-preferences.ts',
    grants: { table: 'read' },
  },
  {
    operationId: 'updateNotificationPreferences',
    method: 'PUT',
    path: '/profile/notification-preferences',
    access: 'authenticated',
    entry: 'functions/http/notifications/update-notification-preferences.ts',
    grants: { table: 'readWrite' },
  },
] as const satisfies readonly RouteEntry[];

export const QUEUES = [
  {
    name: 'mail',
    entry: 'functions/workers/send-mail.ts',
    grants: { mailer: true, table: 'readWrite' },
    batchSize: 10,
    timeoutSeconds: 30,
    maxReceiveCount: 3,
    maxConcurrency: 2,
  },
] as const satisfies readonly QueueEntry[];

/**
 * The catch-all (`$default` in the cloud): unknown paths, and known paths with a method they do not serve, get
 * the contract's 404 `rest_no_route` envelope instead of API Gateway's bare `{"message":"Not Found"}`.
 */
export const FALLBACK_ROUTE: RouteEntry = {
  operationId: 'routeNotFound',
  method: 'GET',
  path: '/{proxy+}',
  access: 'public',
  entry: 'functions/http/platform/route-not-found.ts',
  grants: {},
};

/** Visibility timeout for a queue: six times its consumer's timeout, as AWS advises for Lambda event sources. */
export function visibilityTimeoutSeconds(queue: QueueEntry): number {
  return queue.timeoutSeconds * 6;
}

export const DEFAULT_MEMORY_MB = 512;
export const DEFAULT_TIMEOUT_SECONDS = 29;
