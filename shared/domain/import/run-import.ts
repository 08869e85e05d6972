import * as v from 'valibot';
import type { SequenceName } from '../../db/keys/sequences.ts';
import { nextId } from '../../db/sequence.ts';
import { nowIso } from '../dates.ts';
import { buildImportPlan, type ImportIdMap, sectionSizes, sequenceCounts } from './build-import-plan.ts';
import { checkExisting } from './check-existing.ts';
import { describeIssue, ImportError } from './import-error.ts';
import { type ImportFile, ImportFileSchema } from './import-schema.ts';
import { resolveReferences } from './resolve-references.ts';
import { IMPORT_SECTIONS } from './sections/index.ts';
import type { BuildContext, PrepareContext, SectionName } from './sections/section.ts';
import { normalizeUsername } from '../users/index.ts';
import { writeImport } from './write-import.ts';

/** Validates the whole file against the schema; the message names the first offending items. */
export function parseImportFile(raw: unknown): ImportFile {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ImportError('The import file must hold one JSON object.');
  }
  const result = v.safeParse(ImportFileSchema, raw);
  if (!result.success) {
    const messages = result.issues.slice(0, 5).map((issue) => describeIssue(raw, issue));
    const more = result.issues.length > 5 ? `\n(and ${result.issues.length - 5} more problems)` : '';
    throw new ImportError(`${messages.join('\n')}${more}`);
  }
  return result.output;
}

/**
 * The operator import (spec/operator-cli.md): validate the whole file, resolve its references, check what it
 * would create is free and what it references exists, and only then allocate ids and write, all or nothing even
 * across a crash (write-import.ts). Any refusal before the write leaves the table untouched.
 */
export async function runImport(raw: unknown): Promise<ImportIdMap> {
  const file = parseImportFile(raw);
  const scope = resolveReferences(file);
  const externalUserIds = await checkExisting(file, scope);
  const now = nowIso();
  const existingUserId = (reference: string) =>
    scope.indexOf('user', reference) === undefined
      ? externalUserIds.get(normalizeUsername(reference))
      : undefined;
  const [firstIds, builders] = await Promise.all([
    allocateIds(sequenceCounts(file)),
    prepareSections(file, { existingUserId, now }),
  ]);
  const { plan, output } = buildImportPlan(file, { firstIds, externalUserIds, builders, now });
  await writeImport(plan, sectionSizes(file));
  return output;
}

/** One block of ids per sequence; a sequence the file takes nothing from allocates nothing (no gap). */
async function allocateIds(
  counts: Partial<Record<SequenceName, number>>,
): Promise<Partial<Record<SequenceName, number>>> {
  const entries = Object.entries(counts).filter(([, count]) => count > 0) as [SequenceName, number][];
  const firsts = await Promise.all(entries.map(([name, count]) => nextId(name, count)));
  return Object.fromEntries(entries.map(([name], index) => [name, firsts[index]]));
}

/**
 * What the sections read before building (the pepper, the largest topic serial), side by side: how each builds
 * with it, by name. A section reads nothing when the file has none of its items.
 */
async function prepareSections(
  file: ImportFile,
  context: PrepareContext,
): Promise<Map<SectionName, (context: BuildContext) => unknown>> {
  const builders = await Promise.all(
    IMPORT_SECTIONS.map(async (section) => [section.name, await section.prepare(file, context)] as const),
  );
  return new Map(builders);
}
