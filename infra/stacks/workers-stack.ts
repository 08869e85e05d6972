import { Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { QUEUES, type QueueEntry } from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import type { ApiFunction, GrantableResources, LiveConnectionsAccess } from '../constructs/api-function.ts';
import { catalogueFunction } from '../constructs/catalogue-function.ts';
import type { NativeTarget } from '../constructs/native-modules.ts';
import { workerSpec } from '../function-specs.ts';

export interface WorkersStackProps extends StackProps {
  readonly config: StageConfig;
  readonly resources: GrantableResources;
  /** The live API's connections (api-stack.ts), for the workers with the grant `live` (the notify worker). */
  readonly live?: LiveConnectionsAccess;
  /**
   * The queues whose consumers to deploy.
   * @default QUEUES from shared/catalogue
   */
  readonly queues?: readonly QueueEntry[];
  /**
   * Bundle functions with esbuild (`false`: inline stubs, for template-only synths).
   * @default true
   */
  readonly bundle?: boolean;
  /** Whose native binaries the assets carry (`'host'`: the local bundled mode's synth). */
  readonly nativeTarget?: NativeTarget;
}

/** One consumer per catalogued queue; the queues themselves live in the data stack. */
export class WorkersStack extends Stack {
  readonly workers: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const context = {
      config: props.config,
      resources: props.resources,
      bundle: props.bundle ?? true,
      nativeTarget: props.nativeTarget,
      ...(props.live ? { live: props.live } : {}),
    };
    const workers = new Map<string, ApiFunction>();
    for (const entry of props.queues ?? QUEUES) {
      const fn = catalogueFunction(this, workerSpec(entry), context);
      fn.function.addEventSource(
        new SqsEventSource(props.resources.queue(entry.name), {
          batchSize: entry.batchSize,
          // A failed record is retried alone; the rest of the batch is not processed twice.
          reportBatchItemFailures: true,
          ...(entry.maxConcurrency === undefined ? {} : { maxConcurrency: entry.maxConcurrency }),
        }),
      );
      workers.set(entry.name, fn);
    }
    this.workers = workers;
  }
}
