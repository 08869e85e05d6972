import {
  DATA_DIR_OPTION,
  DATA_DIR_VARIABLE,
  isProcessAlive,
  localDataDir,
  readStackFile,
  stackFilePath,
} from '../../shared/config/local-stack-files.ts';
import { CliError } from './cli-error.ts';

/**
 * Points the process at a stack before any client is created. A deployed stage is chosen by setting TABLE_NAME
 * (with AWS_REGION and PASSWORD_PEPPER_SECRET_ID) in the environment, which is then used as is. Otherwise the
 * CLI acts on the local stack running on a data folder (`--data-dir DIR`, else LOCAL_DATA_DIR, else `.local`):
 * its stack file fills every variable the environment does not already set, so a single override
 * (e.g. LOG_LEVEL) still wins.
 */
export function loadStackEnvironment(
  dataDirOption: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): void {
  if (environment.TABLE_NAME) return;
  const dataDir = localDataDir(dataDirOption, environment);
  const start = `npm start${dataDirOption || environment[DATA_DIR_VARIABLE] ? ` -- --${DATA_DIR_OPTION} ${dataDir}` : ''}`;
  const stack = readStackFile(dataDir);
  if (!stack) {
    throw new CliError(
      `No local stack is running on ${dataDir}. Start it with \`${start}\`, or set TABLE_NAME, AWS_REGION and PASSWORD_PEPPER_SECRET_ID to act on a deployed stage.`,
    );
  }
  if (!Number.isInteger(stack.pid) || !isProcessAlive(stack.pid)) {
    throw new CliError(
      `The local stack recorded in ${stackFilePath(dataDir)} (pid ${stack.pid}) is not running. Start it with \`${start}\`.`,
    );
  }
  for (const [name, value] of Object.entries(stack.env ?? {})) {
    if (environment[name] === undefined && value !== undefined && value !== null)
      environment[name] = String(value);
  }
  if (!environment.TABLE_NAME)
    throw new CliError(`${stackFilePath(dataDir)} does not name a TABLE_NAME; restart \`${start}\`.`);
}
