import type { StageName } from './config.ts';

/**
 * Physical names derived from the catalogue. Functions and queues get deterministic names so the monitoring
 * stack can address their metrics by name instead of importing them: a cross-stack export per function would
 * block removing a route (CloudFormation refuses to delete an export that is still imported).
 */
export const APP_NAME = 'community';

export type StackPart = 'data' | 'api' | `api-${string}` | 'workers' | 'monitoring';

export function stackName(stage: StageName, part: StackPart): string {
  return `${APP_NAME}-${stage}-${part}`;
}

/** Lambda names are capped at 64 characters; operation ids are short camelCase, so this stays well below. */
export function functionName(stage: StageName, id: string): string {
  const name = `${APP_NAME}-${stage}-${id}`;
  if (name.length > 64) throw new Error(`Function name too long (${name.length} > 64): ${name}`);
  return name;
}

export function queueName(stage: StageName, queue: string): string {
  return `${APP_NAME}-${stage}-${queue}`;
}

export function deadLetterQueueName(stage: StageName, queue: string): string {
  return `${queueName(stage, queue)}-dlq`;
}
