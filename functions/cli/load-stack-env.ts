import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cli-error.ts';

/** Where `npm start` records the local stack's function environment (infra/local/start.ts writes it). */
export const STACK_FILE = '.local/stack.json';

/**
 * Points the process at a stack before any client is created. A deployed stage is chosen by setting TABLE_NAME
 * (with AWS_REGION and PASSWORD_PEPPER_SECRET_ID) in the environment, which is then used as is; otherwise the
 * local stack's file fills every variable the environment does not already set, so a single override
 * (e.g. LOG_LEVEL) still wins.
 */
export function loadStackEnvironment(cwd = process.cwd(), environment = process.env): void {
  if (environment.TABLE_NAME) return;
  const file = resolve(cwd, STACK_FILE);
  if (!existsSync(file)) {
    throw new CliError(
      'Start the local stack with `npm start` first, or set TABLE_NAME, AWS_REGION and PASSWORD_PEPPER_SECRET_ID to act on a deployed stage.',
    );
  }
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { env?: Record<string, unknown> };
  for (const [name, value] of Object.entries(parsed.env ?? {})) {
    if (environment[name] === undefined && value !== undefined && value !== null)
      environment[name] = String(value);
  }
  if (!environment.TABLE_NAME)
    throw new CliError(`${STACK_FILE} does not name a TABLE_NAME; restart \`npm start\`.`);
}
