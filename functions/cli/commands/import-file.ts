import { readFile } from 'node:fs/promises';
import type { ImportIdMap } from '../../../shared/domain/import/build-import-writes.ts';
import { ImportError } from '../../../shared/domain/import/import-error.ts';
import { runImport } from '../../../shared/domain/import/run-import.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/** `import FILE.json`: prints the id map; a refused file exits 1 with nothing written. */
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
  try {
    return await runImport(raw);
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(`Import refused, nothing written. ${error.message}`);
    throw error;
  }
}
