import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recoverAbandonedImports } from '../../shared/domain/import/recover-imports.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { findUserIdByUsername } from '../../shared/domain/users/user-repository.ts';
import { generatePepper, type LocalStack, startLocalStack } from './stack.ts';

/**
 * `npm start`: the whole API on this machine, no AWS account. Data lives under `.local/` (git-ignored) and
 * survives restarts; `npm start -- --fresh` deletes it first. `.local/stack.json` tells the operator CLI where
 * the running stack is. Ctrl-C or SIGTERM stops every child process.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const LOCAL_DIR = join(ROOT, '.local');
const DATA_DIR = join(LOCAL_DIR, 'data');
const SECRETS_FILE = join(LOCAL_DIR, 'secrets.json');
const STACK_FILE = join(LOCAL_DIR, 'stack.json');
const ADMIN_LOGIN = 'admin';

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (args.has('--help')) {
    process.stdout.write(
      'usage: npm start [-- --fresh]\n  PORT=3000 by default; --fresh deletes .local/ first\n',
    );
    return;
  }
  if (args.has('--fresh')) rmSync(LOCAL_DIR, { recursive: true, force: true });
  mkdirSync(LOCAL_DIR, { recursive: true });

  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not ${process.env.PORT}`);

  const stack = await startLocalStack({
    port,
    dataDir: DATA_DIR,
    names: { table: 'community', bucket: 'community-media', queuePrefix: 'community' },
    pepper: localPepper(),
  });
  installShutdown(stack);

  writeFileSync(
    STACK_FILE,
    `${JSON.stringify({ apiUrl: stack.apiUrl, sesUrl: stack.sesUrl, pid: process.pid, env: stack.environment }, null, 2)}\n`,
    { mode: 0o600 },
  );

  if ((await findUserIdByUsername(ADMIN_LOGIN)) === undefined) {
    const admin = await createUser({
      login: ADMIN_LOGIN,
      email: 'admin@example.com',
      displayName: 'Administrator',
      hostRole: 'administrator',
      communityRole: 'admin',
    });
    process.stdout.write(
      `administrator created (shown once): user ${admin.username}  application password ${admin.app_password}\n`,
    );
  }

  // Imports a crash interrupted are rolled back before the stack says it is ready (recover-imports.ts).
  for (const line of await recoverAbandonedImports()) process.stdout.write(`${line}\n`);
  process.stdout.write(`ready ${stack.apiUrl}\n`);
  process.stdout.write(`mail inbox ${stack.sesUrl}/\n`);
  process.stdout.write(`openapi ${stack.apiUrl}/openapi.json\n`);
}

/** The pepper of this machine's local store: made on the first start, kept beside the data it protects. */
function localPepper(): string {
  if (existsSync(SECRETS_FILE)) {
    const stored = JSON.parse(readFileSync(SECRETS_FILE, 'utf8')) as { passwordPepper?: string };
    if (stored.passwordPepper) return stored.passwordPepper;
  }
  const pepper = generatePepper();
  writeFileSync(SECRETS_FILE, `${JSON.stringify({ passwordPepper: pepper })}\n`, { mode: 0o600 });
  return pepper;
}

function installShutdown(stack: LocalStack): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`stopping (${signal})\n`);
    rmSync(STACK_FILE, { force: true });
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    stack.stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
