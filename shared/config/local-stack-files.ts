import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where a local stack (`npm start`) keeps its files, shared by the stack and the operator CLI, which finds a
 * running stack by its data folder:
 *
 *   <data folder>/stack.lock    the pid of the stack using the folder (one stack per folder)
 *   <data folder>/stack.json    written once the stack is ready: its URLs, pid and function environment
 *   <data folder>/secrets.json  the local password pepper
 *   <data folder>/data/         the emulators' data (dynamodb/, fauxqs/, ses/: the mail inbox and its port)
 *
 * The folder is `--data-dir DIR`, else LOCAL_DATA_DIR, else `.local` in the repository. A relative DIR is taken
 * from the directory the command was run in (npm's INIT_CWD; npm itself runs scripts from the repository root).
 */
export const DATA_DIR_OPTION = 'data-dir';
export const DATA_DIR_VARIABLE = 'LOCAL_DATA_DIR';

const repoRoot = resolve(import.meta.dirname, '../..');

export function localDataDir(
  explicit: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = explicit ?? environment[DATA_DIR_VARIABLE];
  if (chosen === undefined || chosen === '') return join(repoRoot, '.local');
  return isAbsolute(chosen) ? chosen : resolve(environment.INIT_CWD ?? process.cwd(), chosen);
}

export const stackFilePath = (dataDir: string): string => join(dataDir, 'stack.json');
export const lockFilePath = (dataDir: string): string => join(dataDir, 'stack.lock');
export const secretsFilePath = (dataDir: string): string => join(dataDir, 'secrets.json');
export const emulatorDataPath = (dataDir: string): string => join(dataDir, 'data');

/** What `npm start` writes to stack.json once it serves. */
export interface StackFile {
  readonly pid: number;
  readonly apiUrl: string;
  readonly sesUrl: string;
  /** The function environment (table name, endpoints, pepper): what the CLI needs to act on this stack. */
  readonly env: Record<string, string>;
}

/** The stack file of a folder, or undefined when there is none. */
export function readStackFile(dataDir: string): StackFile | undefined {
  const file = stackFilePath(dataDir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as StackFile;
}

/** Whether a process with this pid exists (a stack file or lock may outlive a killed stack). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
