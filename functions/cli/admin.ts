/**
 * The operator command line (spec/operator-cli.md): `npm run --silent admin -- <command> …`.
 * Standard output carries exactly one JSON document on success and nothing else (operators and black-box tests
 * parse it); every message goes to standard error; exit 1 on any failure.
 */
import { CliError } from './cli-error.ts';
import { loadStackEnvironment } from './load-stack-env.ts';
import { type ParsedArgs, parseArgs } from './parse-args.ts';

const USAGE = `Usage: npm run --silent admin -- <command>
  user:create --login L --email E [--name "Display Name"] [--role administrator|member]
              [--community-role admin|moderator|course_admin|course_creator] [--password P]
  token:create --login L
  token:revoke --token-id ID
  password:revoke --login L
  import FILE.json
  settings:set KEY VALUE`;

type Command = (args: ParsedArgs) => Promise<unknown>;

// Loaded on demand so the environment is in place before any module reads it, and a command loads only its code.
const COMMANDS: Record<string, () => Promise<Command>> = {
  'user:create': async () => (await import('./commands/user-create.ts')).userCreateCommand,
  'token:create': async () => (await import('./commands/token-create.ts')).tokenCreateCommand,
  'token:revoke': async () => (await import('./commands/token-revoke.ts')).tokenRevokeCommand,
  'password:revoke': async () => (await import('./commands/password-revoke.ts')).passwordRevokeCommand,
  import: async () => (await import('./commands/import-file.ts')).importFileCommand,
  'settings:set': async () => (await import('./commands/settings-set.ts')).settingsSetCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const load = name === undefined ? undefined : COMMANDS[name];
  if (!load) {
    process.stderr.write(`${name === undefined ? '' : `Unknown command "${name}".\n`}${USAGE}\n`);
    return 1;
  }
  const args = parseArgs(rest);
  loadStackEnvironment();
  const output = await (await load())(args);
  process.stdout.write(`${JSON.stringify(output)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      error instanceof CliError ? `${error.message}\n` : `${(error as Error)?.stack ?? error}\n`,
    );
    process.exitCode = 1;
  },
);
