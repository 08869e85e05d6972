import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/**
 * The command lines of the project's tools (fixture, fuzz, benchmarks, acceptance): `--help` / `-h` prints the
 * usage (options and an example) and exits 0; an unknown option or a missing value prints the problem and the
 * usage and exits 2, never a stack trace.
 */
export function commandLine<T extends ParseArgsOptionsConfig>(spec: {
  readonly usage: string;
  readonly options: T;
  readonly args?: readonly string[];
  readonly allowPositionals?: boolean;
}) {
  const args = [...(spec.args ?? process.argv.slice(2))];
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${spec.usage.trimEnd()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({
      args,
      options: spec.options,
      strict: true,
      allowPositionals: spec.allowPositionals ?? false,
    });
  } catch (error) {
    return usageError(spec.usage, (error as Error).message);
  }
}

/** Says what is wrong with the command line, then the usage, and exits 2. */
export function usageError(usage: string, problem: string): never {
  process.stderr.write(`${problem}\n\n${usage.trimEnd()}\n`);
  process.exit(2);
}
