import type { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';
import type { FunctionSpec } from '../function-specs.ts';
import { functionName } from '../naming.ts';
import { ApiFunction, type GrantableResources, type LiveConnectionsAccess } from './api-function.ts';
import type { NativeTarget } from './native-modules.ts';

export interface CatalogueFunctionContext {
  readonly config: StageConfig;
  readonly resources: GrantableResources;
  /** See `ApiFunctionProps.bundle`. */
  readonly bundle: boolean;
  /** See `ApiFunctionProps.nativeTarget`. */
  readonly nativeTarget?: NativeTarget;
  /**
   * `PUBLIC_BASE_URL`: the origin and `/v2` clients use, from which functions build absolute links. Set for the
   * API's functions; workers build no links.
   */
  readonly publicBaseUrl?: string;
  /** The live API's connections, for functions with the grant `live` (an error for one without this). */
  readonly live?: LiveConnectionsAccess;
}

/** What a stack of catalogue functions is given (the routes stacks, the workers stack). */
export interface CatalogueFunctionsProps {
  readonly config: StageConfig;
  readonly resources: GrantableResources;
  /** The live API's connections (api-stack.ts), for the functions with the grant `live`. */
  readonly live?: LiveConnectionsAccess;
  /**
   * Bundle functions with esbuild (`false`: inline stubs, for template-only synths).
   * @default true
   */
  readonly bundle?: boolean;
  /** Whose native binaries the assets carry (`'host'`: the local bundled mode's synth). */
  readonly nativeTarget?: NativeTarget;
  /** `PUBLIC_BASE_URL` of the functions (the API stack's); workers build no links. */
  readonly publicBaseUrl?: string;
}

/** The context each function of such a stack is built in. */
export const catalogueFunctionContext = (props: CatalogueFunctionsProps): CatalogueFunctionContext => ({
  config: props.config,
  resources: props.resources,
  bundle: props.bundle ?? true,
  nativeTarget: props.nativeTarget,
  ...(props.publicBaseUrl === undefined ? {} : { publicBaseUrl: props.publicBaseUrl }),
  ...(props.live ? { live: props.live } : {}),
});

/** One function from a catalogue-derived spec: the common environment, then exactly the spec's grants. */
export function catalogueFunction(
  scope: Construct,
  spec: FunctionSpec,
  context: CatalogueFunctionContext,
): ApiFunction {
  const { config, resources } = context;
  const fn = new ApiFunction(scope, spec.id, {
    entry: spec.entry,
    functionName: functionName(config.stage, spec.id),
    memoryMb: spec.memoryMb,
    timeoutSeconds: spec.timeoutSeconds,
    reservedConcurrency: spec.reservedConcurrency,
    logRetention: config.logRetention,
    bundle: context.bundle,
    nativeTarget: context.nativeTarget,
    nativeModules: spec.nativeModules ?? [],
    bundleFiles: spec.bundleFiles,
    environment: {
      STAGE: config.stage,
      // Required by the env schema, so every function knows the table; only `grants.table` gives it access.
      TABLE_NAME: resources.table.tableName,
      MAIL_FROM: config.mail.from,
      CORS_ORIGINS: config.corsOrigins.join(','),
      LOG_LEVEL: config.logLevel,
      ...(context.publicBaseUrl === undefined ? {} : { PUBLIC_BASE_URL: context.publicBaseUrl }),
      // Workers send e-mails with links too (digests): every function gets the app's page template.
      ...(config.appLinkTemplate === undefined ? {} : { APP_LINK_TEMPLATE: config.appLinkTemplate }),
      ...(config.invitationLinkTemplate === undefined
        ? {}
        : { INVITATION_LINK_TEMPLATE: config.invitationLinkTemplate }),
    },
  });
  fn.bindGrants(spec.grants, resources);
  // The functions that sign media URLs (granted the private key) sign CloudFront's when the stage has a key.
  if (spec.grants.secrets?.some((name) => name === 'mediaSigningKey') && resources.mediaCdnKeyPairId) {
    fn.function.addEnvironment('MEDIA_CDN_KEY_PAIR_ID', resources.mediaCdnKeyPairId);
  }
  if (spec.grants.live) {
    if (!context.live) throw new Error(`${spec.id} posts to live connections, but no live API is in reach`);
    fn.bindLiveConnections(context.live);
  }
  return fn;
}
