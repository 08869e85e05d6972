import {
  describeRecovery,
  type ImportRecovery,
  recoverUnfinishedImports,
} from '../../../shared/domain/import/recover-imports.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/**
 * `import:recover [--import-id ID]`: rolls back every unfinished import whose importing process is gone (and
 * removes what committed ones left), printing what it did; a second run prints an empty list. `--import-id` rolls
 * back that import even if its owner looks alive (a CLI on another machine that is known to have died; the owner,
 * if it still runs, stops at its next batch). Exit 1 when a rollback is blocked by items users changed meanwhile.
 */
export async function importRecoverCommand(args: ParsedArgs): Promise<{ imports: ImportRecovery[] }> {
  assertKnownOptions(args, ['import-id']);
  if (args.positionals.length > 0) throw new CliError('Usage: import:recover [--import-id ID]');
  const importId = args.options.get('import-id');
  const imports = await recoverUnfinishedImports(importId === undefined ? {} : { importId });
  const blocked = imports.filter((recovery) => recovery.outcome === 'blocked');
  if (blocked.length > 0) {
    throw new CliError(
      [...imports.filter((recovery) => recovery.outcome !== 'blocked'), ...blocked]
        .map(describeRecovery)
        .join('\n'),
    );
  }
  return { imports };
}
