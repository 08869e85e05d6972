import * as v from 'valibot';
import { QUEUE_NAMES, type QueueUrlVariable, queueUrlVariable } from '../catalogue/queues.ts';
import { SECRET_NAMES, SECRETS, type SecretIdVariable } from '../catalogue/secrets.ts';

/**
 * The environment every function receives, as a schema. CDK sets exactly these variables
 * (infra/constructs/api-function.ts types its `environment` from `DeployedEnvironment`), the local stack sets the
 * same names with emulator endpoints, and each function parses it once per cold start. Queue URL and secret id
 * variables are derived from the catalogue, so a new queue or secret needs no edit here.
 */
const optionalUrl = v.optional(v.pipe(v.string(), v.url()));
const optionalString = v.optional(v.string(), '');

const queueUrlEntries = Object.fromEntries(
  QUEUE_NAMES.map((name) => [queueUrlVariable(name), optionalString]),
) as Record<QueueUrlVariable, typeof optionalString>;

const secretIdEntries = Object.fromEntries(
  SECRET_NAMES.map((name) => [SECRETS[name].idVariable, optionalString]),
) as Record<SecretIdVariable, typeof optionalString>;

export const FunctionEnvironmentSchema = v.object({
  STAGE: v.optional(v.string(), 'local'),
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  MEDIA_BUCKET: optionalString,
  /** Queue URLs, one per catalogued queue: `QUEUE_URL_<NAME>`. */
  ...queueUrlEntries,
  /** Secret ids (cloud), one per catalogued secret: e.g. `PASSWORD_PEPPER_SECRET_ID`. */
  ...secretIdEntries,
  MAIL_FROM: v.optional(v.string(), 'community@example.com'),
  /** Comma-separated allowed CORS origins, or `*` (local only). */
  CORS_ORIGINS: v.optional(v.string(), '*'),
  /**
   * The origin and base path clients use (`https://api.example.com/v2`); absolute links (paginator URLs) are
   * built from it, never from request headers a client controls.
   */
  PUBLIC_BASE_URL: v.optional(v.string(), ''),
  /**
   * Where links in e-mails (digest, notification e-mails) open a client app's page: a URL with `{path}` in place
   * of the page's path (`https://community.example.com{path}` gives `https://community.example.com/u/bob`). Empty:
   * the API's own origin, where the local stack serves a page for each link (shared/domain/app-link.ts).
   */
  APP_LINK_TEMPLATE: v.optional(
    v.pipe(
      v.string(),
      v.check((template) => template === '' || template.includes('{path}'), 'APP_LINK_TEMPLATE needs {path}'),
    ),
    '',
  ),
  /**
   * Where the invitation e-mail's link goes: a URL with `{token}` in place of the invitation's token
   * (`https://community.example.com/invitations/{token}` gives a client app's page, which accepts it with
   * `POST /invitations/{token}/accept`). Empty: the API's accept route itself (shared/domain/invitations/invitation-mail.ts).
   */
  INVITATION_LINK_TEMPLATE: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (template) => template === '' || template.includes('{token}'),
        'INVITATION_LINK_TEMPLATE needs {token}',
      ),
    ),
    '',
  ),
  /** Local stack and tests: secret values themselves. Cloud: empty, and the `*_SECRET_ID` variables name them. */
  PASSWORD_PEPPER: optionalString,
  CURSOR_KEY: optionalString,
  BUDDYPRESS_URL: optionalString,
  /** Tests only: the PEM private key CloudFront URLs are signed with (the cloud reads the `mediaSigningKey` secret). */
  MEDIA_SIGNING_KEY: optionalString,
  /** Table prefix of the BuddyPress source named by `BUDDYPRESS_URL` (the cloud secret carries its own). */
  BUDDYPRESS_TABLE_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]*$/)), 'wp_'),
  /**
   * Where the BuddyPress uploads folder (`wp-content/uploads`) is read from, for avatars and covers: a folder path,
   * a `file://` URL or `s3://bucket/prefix`. Local stack and tests; in the cloud the source secret's `uploadsUrl`.
   */
  BUDDYPRESS_UPLOADS_URL: optionalString,
  /** Local stack only: emulator endpoints. Unset in the cloud, where the SDK's defaults apply. */
  DYNAMODB_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  /** The base URL clients fetch stored media at: the CDN in the cloud, the emulator's path-style bucket URL locally. */
  MEDIA_PUBLIC_BASE_URL: optionalString,
  /**
   * The CloudFront public key id (`Key-Pair-Id`) that URLs of private and secret spaces' media are signed for,
   * with the private key in the `mediaSigningKey` secret. Set by CDK on the functions granted that secret when the
   * stage has a signing key; empty (locally, and a stage without one): those media get presigned S3 GETs instead.
   */
  MEDIA_CDN_KEY_PAIR_ID: optionalString,
  /**
   * Local stack only (`npm start`; ignored unless `STAGE` is `local`, and never set by CDK): a providers.json-style
   * file of extra oEmbed providers, and comma-separated `host:port` pairs exempt from the oEmbed address check.
   */
  OEMBED_PROVIDERS_EXTRA: optionalString,
  OEMBED_ALLOW_HOSTS: optionalString,
  /**
   * The live (WebSocket) API's stage URL, whose `@connections` management API the functions post to:
   * `wss://<api>.execute-api.<region>.amazonaws.com/live` in the cloud (posted to over HTTPS), the local gateway's
   * `http://127.0.0.1:<port>/live` locally. Set only on the functions with the catalogue grant `live`; empty
   * elsewhere, where live announcements are skipped.
   */
  LIVE_CONNECTIONS_ENDPOINT: optionalString,
  /** Checks every response against its contract before sending; on locally and in tests, off in production. */
  VALIDATE_RESPONSES: v.optional(v.picklist(['true', 'false']), 'false'),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
});

export type FunctionEnvironment = v.InferOutput<typeof FunctionEnvironmentSchema>;

/** The variables CDK must set explicitly (the rest have defaults or are local-only). */
export type DeployedEnvironment = Pick<
  v.InferInput<typeof FunctionEnvironmentSchema>,
  | 'STAGE'
  | 'TABLE_NAME'
  | 'MEDIA_BUCKET'
  | 'MEDIA_PUBLIC_BASE_URL'
  | 'MEDIA_CDN_KEY_PAIR_ID'
  | QueueUrlVariable
  | SecretIdVariable
  | 'MAIL_FROM'
  | 'CORS_ORIGINS'
  | 'PUBLIC_BASE_URL'
  | 'APP_LINK_TEMPLATE'
  | 'LIVE_CONNECTIONS_ENDPOINT'
  | 'INVITATION_LINK_TEMPLATE'
  | 'LOG_LEVEL'
>;

let cached: FunctionEnvironment | undefined;

/** Parses `process.env` once per process; a missing or malformed variable fails the cold start loudly. */
export function env(): FunctionEnvironment {
  if (!cached) {
    const result = v.safeParse(FunctionEnvironmentSchema, process.env);
    if (!result.success) {
      const names = result.issues.map((issue) => v.getDotPath(issue) ?? '?').join(', ');
      throw new Error(`Invalid function environment: ${names}`);
    }
    cached = result.output;
  }
  return cached;
}

/** Tests and the local stack change the environment between runs; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
