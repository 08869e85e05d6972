import { readFile } from 'node:fs/promises';
import type { ImportIdMap } from '../../../shared/domain/import/build-import-plan.ts';
import { ImportError, ImportInterrupted } from '../../../shared/domain/import/import-error.ts';
import { recoverAbandonedImports } from '../../../shared/domain/import/recover-imports.ts';
import { runImport } from '../../../shared/domain/import/run-import.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/**
 * `import FILE.json`: prints the id map; a refused file exits 1 with nothing written. Before importing, it rolls
 * back what crashed imports left (owner process gone), and says so on standard error.
 */
export async function importFileCommand(args: ParsedArgs): Promise<ImportIdMap> {
  assertKnownOptions(args, []);
  const [path, ...extra] = args.positionals;
  if (path === undefined || extra.length > 0) throw new CliError('Usage: import FILE.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  for (const line of await recoverAbandonedImports()) process.stderr.write(`${line}\n`);
  try {
    return await runImport(raw);
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(`Import refused, nothing written. ${error.message}`);
    if (error instanceof ImportInterrupted) throw new CliError(error.message);
    throw error;
  }
}
