import type { Context } from 'aws-lambda';

/**
 * A function whose module counts its own evaluations (on globalThis, shared with the test), so a test can tell
 * that the local runtime loads an entry once per process, as a warm Lambda keeps its module.
 */
const KEY = Symbol.for('community-api.test.counted-module');
type Holder = typeof globalThis & { [KEY]?: number };
(globalThis as Holder)[KEY] = ((globalThis as Holder)[KEY] ?? 0) + 1;

export const evaluations = (): number => (globalThis as Holder)[KEY] ?? 0;

export async function handler(_event: unknown, context: Context): Promise<string> {
  return context.awsRequestId;
}
