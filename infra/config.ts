import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/**
 * Stage configuration: the ONLY place the CDK app reads context (`-c stage=…`) or the deploy environment.
 * Everything a stage may differ in lives in `StageConfig`; stacks receive it as a plain typed object, so tests
 * build a config without any CDK context.
 */
export const STAGE_NAMES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export interface StageConfig {
  readonly stage: StageName;
  /** Undefined = environment-agnostic stacks (synth needs no credentials). */
  readonly account: string | undefined;
  readonly region: string;
  /**
   * The API's custom domain, created by the app (certificate, domain, API mapping, alias records); undefined = no
   * domain, and clients (and the links functions build) use the HTTP API's own execute-api endpoint.
   */
  readonly customDomain: CustomDomainConfig | undefined;
  readonly mail: {
    /** The `From` address every message uses (`MAIL_FROM`). */
    readonly from: string;
    /**
     * What SES verifies: the sender's whole domain (DKIM records to publish) or only the address (a click on a
     * verification mail; fine for dev).
     */
    readonly identity: 'domain' | 'address';
  };
  readonly alarms: {
    /** Subscribed to the alarm topic; undefined = topic without subscriptions (wire a chat hook later). */
    readonly email: string | undefined;
    /** Percentage of API requests answered 5xx over 5 minutes that raises the alarm. */
    readonly serverErrorRatePercent: number;
    /** Errors per function over 5 minutes that raise its alarm (throttles alarm on the first one). */
    readonly functionErrors: number;
  };
  /** Browser origins allowed by the API's CORS preflight and by the media bucket's POST uploads. */
  readonly corsOrigins: readonly string[];
  /**
   * The client app's page for a link in an e-mail (`APP_LINK_TEMPLATE`): `{path}` is the page's path (`/u/bob`,
   * `/feeds/2?comment_id=1`). Undefined = links on the API's own origin.
   */
  readonly appLinkTemplate: string | undefined;
  /**
   * The client app's invitation page (`INVITATION_LINK_TEMPLATE`): `{token}` is the invitation's token; the page
   * accepts it with `POST /invitations/{token}/accept`. Undefined = the API's accept route itself.
   */
  readonly invitationLinkTemplate: string | undefined;
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * Reserved concurrency of functions that must not be starved. The authorizer runs before every protected
   * request: its reservation is a floor no burst elsewhere can take (and also its ceiling, so it is sized well
   * above `throttle.rateLimit` x its duration of a few tens of milliseconds). Undefined = none: an account
   * with a low concurrency quota (new accounts may have 10) cannot reserve any, and the deploy would fail.
   * Workers reserve theirs in the catalogue (`QueueEntry.reservedConcurrency`).
   */
  readonly reservedConcurrency: { readonly authorizer: number | undefined };
  readonly logRetention: RetentionDays;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * The bucket operators sync the BuddyPress uploads folder to, when the source secret's `uploadsUrl` is
   * `s3://<this bucket>/…`: the migrations worker and the config route may list it and read its objects (the
   * catalogue's `sourceUploads` grant). Undefined = no such grant (a folder location, or none).
   */
  readonly buddypressUploadsBucket: string | undefined;
  /**
   * PEM public key (RSA 2048) of the media CDN's signing key pair: the CDN then serves files of private and secret
   * spaces (`private/*`) only to URLs signed with its private half, which operators put in the `mediaSigningKey`
   * secret (README "Media of private spaces"; the private key is never in the repository). Undefined = no signing
   * key: such files are served through presigned S3 GETs instead (the bundled mode runs `dev` locally this way).
   */
  readonly mediaSigningPublicKey: string | undefined;
}

export interface CustomDomainConfig {
  /** e.g. `api.community.example.com`. */
  readonly name: string;
  /**
   * The Route 53 public hosted zone the name lives in: the certificate is DNS-validated through it and the alias
   * records are written there. Both id and name are given, so synth needs no AWS lookup (no credentials).
   */
  readonly hostedZoneId: string;
  readonly hostedZoneName: string;
}

const EXAMPLE_MEDIA_SIGNING_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqy/g5PMR/cNePV7z3BNs
VTygJrk+TU7x77+r/g438uA+brrIeTu2igatc4scLLZdxveQW7ALFLvlYSW13YBY
OTBViZFA3GTuoz2bAUtbn3BKjBaL6AR3MS5qPet9xyp2S09tdCkzzRuw8MdJGUIz
TxXuBlbRuRqx3kdwOztBn0zRmdeLXAjh9YlKu1H/oxM2QERUYGDIr63Z8t5tqqkY
LQbkKUkNPROA6UjDGxyRk9mRKMwqkGXa0HcOK43dP1FCkqacyev+NMPb57oL0j74
yM0L1irCUO4XzNAuWtpbfuluK/vWUvu2o5xgTXaKyDQFRaNGiCc9qXZG7E5EVXH8
5QIDAQAB
-----END PUBLIC KEY-----
`;

type StageDefaults = Omit<StageConfig, 'stage' | 'account' | 'region'>;

const STAGES: Record<StageName, StageDefaults> = {
  dev: {
    customDomain: undefined,
    mail: { from: 'community-dev@example.com', identity: 'address' },
    alarms: { email: undefined, serverErrorRatePercent: 5, functionErrors: 5 },
    corsOrigins: ['http://localhost:5173', 'https://dev.community.example.com'],
    appLinkTemplate: 'https://dev.community.example.com{path}',
    // The API's accept route: the bundled mode runs this stage locally, where the stack answers a browser's GET of
    // that route with a page (infra/local/app-pages.ts) and the tests read the token from the link.
    invitationLinkTemplate: undefined,
    throttle: { rateLimit: 50, burstLimit: 100 },
    // None in dev: a dev account's quota may be 10 in all, and a reservation is also a ceiling (10 throttled every
    // burst of 20 concurrent requests in the bundled mode, each a bare 500 from the gateway).
    reservedConcurrency: { authorizer: undefined },
    logRetention: RetentionDays.TWO_WEEKS,
    logLevel: 'debug',
    buddypressUploadsBucket: undefined,
    mediaSigningPublicKey: undefined,
  },
  prod: {
    // The zone id is the placeholder of this example configuration: put the id of your own public zone here.
    customDomain: {
      name: 'api.community.example.com',
      hostedZoneId: 'Z0EXAMPLE00000000000',
      hostedZoneName: 'community.example.com',
    },
    mail: { from: 'community@community.example.com', identity: 'domain' },
    alarms: { email: 'ops@community.example.com', serverErrorRatePercent: 1, functionErrors: 1 },
    corsOrigins: ['https://community.example.com'],
    appLinkTemplate: 'https://community.example.com{path}',
    invitationLinkTemplate: 'https://community.example.com/invitations/{token}',
    throttle: { rateLimit: 500, burstLimit: 1000 },
    reservedConcurrency: { authorizer: 100 },
    logRetention: RetentionDays.THREE_MONTHS,
    logLevel: 'info',
    buddypressUploadsBucket: undefined,
    // The public half of this example configuration's key pair, whose private half was discarded: generate your own
    // (README "Media of private spaces"), put its public half here and its private half in the secret.
    mediaSigningPublicKey: EXAMPLE_MEDIA_SIGNING_PUBLIC_KEY,
  },
};

export const DEFAULT_REGION = 'us-east-1';

function isStageName(value: unknown): value is StageName {
  return typeof value === 'string' && (STAGE_NAMES as readonly string[]).includes(value);
}

/**
 * Builds a stage's configuration. `env` defaults to `process.env`, where the CDK CLI puts the resolved
 * account/region (`CDK_DEFAULT_*`) and CI may pin them (`CDK_DEPLOY_*`).
 */
export function stageConfig(stage: StageName, env: NodeJS.ProcessEnv = process.env): StageConfig {
  return {
    stage,
    account: env.CDK_DEPLOY_ACCOUNT ?? env.CDK_DEFAULT_ACCOUNT,
    region: env.CDK_DEPLOY_REGION ?? env.CDK_DEFAULT_REGION ?? DEFAULT_REGION,
    ...STAGES[stage],
  };
}

/** Reads `-c stage=dev|prod` (default `dev`); an unknown stage fails the synth instead of deploying a guess. */
export function configFromContext(tryGetContext: (key: string) => unknown): StageConfig {
  const requested = tryGetContext('stage') ?? 'dev';
  if (!isStageName(requested)) {
    throw new Error(`Unknown stage "${String(requested)}"; expected one of ${STAGE_NAMES.join(', ')}`);
  }
  return stageConfig(requested);
}

/**
 * Whether functions are bundled with esbuild. `-c bundle=false` or `CDK_BUNDLE=false` swaps in an inline stub so
 * template-only runs (infra tests, quick synths) skip ~1 s of esbuild per function.
 */
export function bundleFromContext(tryGetContext: (key: string) => unknown): boolean {
  const value = tryGetContext('bundle') ?? process.env.CDK_BUNDLE ?? 'true';
  return String(value) !== 'false';
}

/**
 * `-c nativeTarget=host`: native packages (sharp) are installed for this machine instead of Lambda's linux-arm64,
 * for the local bundled mode (`npm start -- --bundled`), which runs the assets here. Such an assembly is written to
 * its own folder and never deployed.
 */
export function nativeTargetFromContext(tryGetContext: (key: string) => unknown): 'lambda' | 'host' {
  const value = String(tryGetContext('nativeTarget') ?? 'lambda');
  if (value !== 'lambda' && value !== 'host')
    throw new Error(`nativeTarget must be lambda or host, not ${value}`);
  return value;
}

/**
 * Feature flags the infra code relies on, set on every `App` (app.ts and the tests) rather than in cdk.json so a
 * test app cannot silently differ from the real one. With the first, server access logs are delivered through a
 * bucket policy instead of the legacy `LogDeliveryWrite` ACL, so the log bucket can disable ACLs entirely.
 */
export const APP_CONTEXT = {
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Strong (export/import) references from the stateless stacks to the data stack: CloudFormation then refuses
  // to delete a table or bucket something still uses. The data stack's exports are stable by design.
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
} as const;
