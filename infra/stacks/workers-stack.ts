import { Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { QUEUES, type QueueEntry } from '../../shared/catalogue/index.ts';
import type { ApiFunction } from '../constructs/api-function.ts';
import {
  type CatalogueFunctionsProps,
  catalogueFunction,
  catalogueFunctionContext,
} from '../constructs/catalogue-function.ts';
import { workerSpec } from '../function-specs.ts';

/** The consumers' stack; `live` reaches the workers with the grant `live` (the notify worker). */
export interface WorkersStackProps extends StackProps, Omit<CatalogueFunctionsProps, 'publicBaseUrl'> {
  /**
   * The queues whose consumers to deploy.
   * @default QUEUES from shared/catalogue
   */
  readonly queues?: readonly QueueEntry[];
}

/** One consumer per catalogued queue; the queues themselves live in the data stack. */
export class WorkersStack extends Stack {
  readonly workers: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const context = catalogueFunctionContext(props);
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
