import { type CatalogueRoute, type RouteEntry, withEntryFiles } from './routes/route.ts';
import { FEED_ROUTES } from './routes/feeds.ts';
import { LIVE_ROUTES } from './routes/live.ts';
import { NOTIFICATION_ROUTES } from './routes/notifications.ts';
import { PLATFORM_ROUTES } from './routes/platform.ts';
import { TOPIC_ROUTES } from './routes/topics.ts';
import { QUIZ_ROUTES } from './routes/quizzes.ts';
import { SETTINGS_ROUTES } from './routes/settings.ts';
import { SPACE_ROUTES } from './routes/spaces.ts';
import { INVITATION_ROUTES } from './routes/invitations.ts';
import { COURSE_ROUTES } from './routes/courses.ts';
import { MEDIA_ROUTES } from './routes/media.ts';
import { MIGRATION_ROUTES } from './routes/migrations.ts';
import { PROFILE_ROUTES } from './routes/profiles.ts';

/**
 * The route and queue catalogue: the single list of every HTTP route and every queue. CDK (functions, routes,
 * grants), the local gateway and poller, the OpenAPI document and the permission tests all read it; nothing
 * else wires an endpoint. Each domain lists its routes in `routes/<domain>.ts`; this module joins them.
 *
 * Adding an endpoint = a contract in shared/contracts, a use case in shared/domain, one line in its domain's
 * route list, the entry file where the line's operation id puts it (routes/entry-file.ts), tests.
 */
export interface RouteDomain {
  /**
   * Names the domain's API stack (`community-<stage>-api-<name>`): stable, so a route never moves stacks. Also the
   * folder of its entry files (`functions/http/<name>/`).
   */
  readonly name: string;
  readonly routes: readonly RouteEntry[];
}

/**
 * The routes by domain. In the cloud each domain's functions and routes are a stack of their own on the one HTTP
 * API, so a growing domain never pushes another toward CloudFormation's resource limit (infra/stacks/).
 */
const domain = (name: string, lines: readonly CatalogueRoute[]): RouteDomain => ({
  name,
  routes: withEntryFiles(name, lines),
});

export const ROUTE_DOMAINS: readonly RouteDomain[] = [
  domain('platform', PLATFORM_ROUTES),
  domain('notifications', NOTIFICATION_ROUTES),
  domain('topics', TOPIC_ROUTES),
  domain('feeds', FEED_ROUTES),
  domain('quizzes', QUIZ_ROUTES),
  domain('settings', SETTINGS_ROUTES),
  domain('spaces', SPACE_ROUTES),
  domain('invitations', INVITATION_ROUTES),
  domain('courses', COURSE_ROUTES),
  domain('media', MEDIA_ROUTES),
  domain('migrations', MIGRATION_ROUTES),
  domain('profiles', PROFILE_ROUTES),
  domain('live', LIVE_ROUTES),
];

export const ROUTES: readonly RouteEntry[] = ROUTE_DOMAINS.flatMap((domain) => domain.routes);

export { FALLBACK_ROUTE, REFERENCE_SCRIPT_FILE } from './routes/platform.ts';
export type { CatalogueRoute, Grants, QueueEntry, RouteEntry } from './routes/route.ts';
export {
  DEFAULT_OLDEST_MESSAGE_ALARM_SECONDS,
  MESSAGE_RETENTION_SECONDS,
  QUEUE_NAMES,
  QUEUES,
  type QueueName,
  type QueueUrlVariable,
  queueUrlVariable,
  visibilityTimeoutSeconds,
} from './queues.ts';
export { SCHEDULES, type ScheduleEntry } from './schedules.ts';
export { SECRET_NAMES, SECRETS, type SecretIdVariable, type SecretName } from './secrets.ts';
export {
  API_BASE_PATH,
  type AccessLevel,
  type BucketAccess,
  type BucketPrefix,
  DEFAULT_MEMORY_MB,
  DEFAULT_TIMEOUT_SECONDS,
  type HttpMethod,
  type NativeModule,
} from './types.ts';
export { LIVE_AUTHORIZER, LIVE_ROUTES } from './live.ts';
export { LIVE_STAGE, type LiveRouteEntryOf, type LiveRouteKey } from './types.ts';
