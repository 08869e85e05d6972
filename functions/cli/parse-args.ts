import { CliError } from './cli-error.ts';

export interface ParsedArgs {
  readonly positionals: string[];
  readonly options: Map<string, string>;
}

/**
 * `--name value` and `--name=value` options plus positionals. Every option of this CLI takes a value, so a
 * missing one is an error rather than a silent boolean; an option given twice is refused (ambiguous).
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const args = argv.values();
  for (const arg of args) {
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = args.next().value;
      if (value === undefined || value.startsWith('--'))
        throw new CliError(`Option --${name} needs a value.`);
    }
    if (options.has(name)) throw new CliError(`Option --${name} is given twice.`);
    options.set(name, value);
  }
  return { positionals, options };
}

/** Refuses options the command does not know, so a typo never silently falls back to a default. */
export function assertKnownOptions(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.options.keys()) {
    if (!known.includes(name)) throw new CliError(`Unknown option --${name}.`);
  }
}

export function requiredOption(args: ParsedArgs, name: string): string {
  const value = args.options.get(name);
  if (value === undefined || value.trim() === '') throw new CliError(`Option --${name} is required.`);
  return value;
}

/**
 * Removes one `--name value` / `--name=value` option from anywhere in the arguments (it applies to the whole
 * command line, not to one command) and answers its value and the other arguments.
 */
export function takeOption(
  argv: readonly string[],
  name: string,
): { value: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  const args = argv.values();
  for (const arg of args) {
    let found: string | undefined;
    if (arg === `--${name}`) {
      found = args.next().value;
      if (found === undefined || found.startsWith('--'))
        throw new CliError(`Option --${name} needs a value.`);
    } else if (arg.startsWith(`--${name}=`)) found = arg.slice(name.length + 3);
    else {
      rest.push(arg);
      continue;
    }
    if (value !== undefined) throw new CliError(`Option --${name} is given twice.`);
    value = found;
  }
  return { value, rest };
}
