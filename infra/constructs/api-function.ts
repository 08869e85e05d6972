import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_SECONDS, type Grants } from '../../shared/catalogue/index.ts';
import type { DeployedEnvironment } from '../../shared/config/env.ts';
import { acknowledge } from '../nag.ts';
import { bundledFunction, type FunctionCode } from './function-bundling.ts';
import {
  bindGrants,
  bindLiveConnections,
  type GrantableResources,
  type LiveConnectionsAccess,
} from './function-grants.ts';

export { PROJECT_ROOT } from './function-bundling.ts';
export type { GrantableResources, LiveConnectionsAccess } from './function-grants.ts';

export interface ApiFunctionProps extends FunctionCode {
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

    this.function = bundledFunction(this, 'Function', common, props);

    // X-Ray's PutTraceSegments/PutTelemetryRecords cannot be scoped to a resource (AWS-mandated `*`).
    acknowledge(
      this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions; AWS requires "*".',
    );
  }

  /** Grants the resources a catalogue entry names, and nothing else (function-grants.ts). */
  bindGrants(grants: Grants, resources: GrantableResources): void {
    bindGrants(this, grants, resources);
  }

  /** Posting to and closing connections of the live WebSocket API, nothing else (function-grants.ts). */
  bindLiveConnections(live: LiveConnectionsAccess): void {
    bindLiveConnections(this, live);
  }
}
