import { generatePepper, startLocalStack } from '../../../infra/local/stack.ts';

/**
 * The local stack a benchmark measures against: in memory, on a free port, with resource names of its own (`run`)
 * and logs silenced, its environment exported so the domain code the benchmark calls directly reaches it.
 */
export async function startBenchStack(run: string) {
  process.env.LOG_LEVEL = 'silent';
  const stack = await startLocalStack({
    port: 0,
    names: { table: `bench-${run}`, bucket: `bench-media-${run}`, queuePrefix: `bench-${run}` },
    pepper: generatePepper(),
  });
  Object.assign(process.env, stack.environment, { LOG_LEVEL: 'silent' });
  return stack;
}
