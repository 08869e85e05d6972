/**
 * The operator command line (spec/operator-cli.md): `npm run --silent admin -- <command> …`.
 * Standard output carries exactly one JSON document on success and nothing else (operators and black-box tests
 * parse it); every message goes to standard error; exit 1 on any failure.
 */
import { CliError } from './cli-error.ts';
import { adminUsage, COMMAND_HELP, commandHelp } from './command-help.ts';
import { DATA_DIR_OPTION } from '../../shared/config/local-stack-files.ts';
import { loadStackEnvironment } from './load-stack-env.ts';
import { type ParsedArgs, parseArgs, takeOption } from './parse-args.ts';

type Command = (args: ParsedArgs) => Promise<unknown>;

// Loaded on demand so the environment is in place before any module reads it, and a command loads only its code.
const COMMANDS: Record<string, () => Promise<Command>> = {
  'user:create': async () => (await import('./commands/user-create.ts')).userCreateCommand,
  'token:create': async () => (await import('./commands/token-create.ts')).tokenCreateCommand,
  'token:revoke': async () => (await import('./commands/token-revoke.ts')).tokenRevokeCommand,
  'password:revoke': async () => (await import('./commands/password-revoke.ts')).passwordRevokeCommand,
  'user:suspend': async () => (await import('./commands/user-status.ts')).userSuspendCommand,
  'user:activate': async () => (await import('./commands/user-status.ts')).userActivateCommand,
  import: async () => (await import('./commands/import-file.ts')).importFileCommand,
  'import:recover': async () => (await import('./commands/import-recover.ts')).importRecoverCommand,
  'settings:set': async () => (await import('./commands/settings-set.ts')).settingsSetCommand,
  'digest:run': async () => (await import('./commands/digest-run.ts')).digestRunCommand,
  'migrate:start': async () => (await import('./commands/migrate.ts')).migrateStartCommand,
  'migrate:status': async () => (await import('./commands/migrate.ts')).migrateStatusCommand,
  'migrate:resume': async () => (await import('./commands/migrate.ts')).migrateResumeCommand,
  'storage:upgrade': async () => (await import('./commands/storage-upgrade.ts')).storageUpgradeCommand,
};

const FLAGS = ['--follow', '--dry-run'];

async function main(commandLine: readonly string[]): Promise<number> {
  // Before or after the command name: it chooses the stack, not an option of the command.
  const { value: dataDir, rest: argv } = takeOption(commandLine, DATA_DIR_OPTION);
  const [name, ...rest] = argv;
  const asksHelp = (args: readonly string[]) => args.some((arg) => arg === '--help' || arg === '-h');
  // Help is what was asked for: standard output, exit 0, and nothing else is done.
  if (name === undefined || name === 'help' || asksHelp([name])) {
    (name === undefined ? process.stderr : process.stdout).write(`${adminUsage()}\n`);
    return name === undefined ? 1 : 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`Unknown command "${name}".\n${adminUsage()}\n`);
    return 1;
  }
  if (asksHelp(rest)) {
    const help = COMMAND_HELP[name];
    process.stdout.write(`${help ? commandHelp(help) : `usage: npm run --silent admin -- ${name} …`}\n`);
    return 0;
  }
  // `--follow` and `--dry-run` are this CLI's flags without a value.
  const args = parseArgs(rest.map((arg) => (FLAGS.includes(arg) ? `${arg}=yes` : arg)));
  loadStackEnvironment(dataDir);
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
