import type { SequenceName } from '../../db/keys/sequences.ts';
import type { CommentItem, PostItem } from '../feeds/index.ts';
import type { SpaceItem } from '../spaces/index.ts';
import { normalizeUsername } from '../users/index.ts';
import { ImportPlan } from './import-plan.ts';
import type { ImportFile } from './import-schema.ts';
import type { RefKind } from './reference-scope.ts';
import { EXTENSION_SECTIONS, IMPORT_SECTIONS, type ImportIdMap } from './sections/index.ts';
import type { BuildContext, SectionName } from './sections/section.ts';

export type { ImportIdMap };

/** What building needs besides the file: allocated ids and what the sections' `prepare` read. */
export interface BuildInputs {
  /** The first id of each sequence's block, allocated for `sequenceCounts(file)`. */
  readonly firstIds: Partial<Record<SequenceName, number>>;
  /** Existing users the file references, by normalized login. */
  readonly externalUserIds: ReadonlyMap<string, number>;
  /** How each section builds with what its `prepare` read, by section name. */
  readonly builders: ReadonlyMap<SectionName, (context: BuildContext) => unknown>;
  readonly now: string;
}

/** How many ids the file takes from each sequence, summed over the sections. */
export function sequenceCounts(file: ImportFile): Partial<Record<SequenceName, number>> {
  const counts: Partial<Record<SequenceName, number>> = {};
  for (const section of IMPORT_SECTIONS) {
    const taken = section.ids(file);
    for (const [name, count] of Object.entries(taken) as [SequenceName, number][])
      counts[name] = (counts[name] ?? 0) + count;
  }
  return counts;
}

/** How many items of each section the file holds (recorded in the journal for operators). */
export const sectionSizes = (file: ImportFile): Record<string, number> =>
  Object.fromEntries(IMPORT_SECTIONS.map((section) => [section.name, file[section.name].length]));

/**
 * Turns a validated, resolved file into the plan of writes and the id map to print, section by section in the
 * registry's order. Pure: every id and lookup is given, so the same input builds the same plan.
 */
export function buildImportPlan(
  file: ImportFile,
  inputs: BuildInputs,
): { plan: ImportPlan; output: ImportIdMap } {
  const plan = new ImportPlan();
  const next = new Map(Object.entries(inputs.firstIds) as [SequenceName, number][]);
  const refs = new Map<RefKind, Map<string, number>>();
  const context: BuildContext = {
    plan,
    now: inputs.now,
    takeId(sequence) {
      const id = next.get(sequence);
      if (id === undefined) throw new Error(`No ids were allocated from the ${sequence} sequence`);
      next.set(sequence, id + 1);
      return id;
    },
    setId(kind, ref, id) {
      let ids = refs.get(kind);
      if (!ids) {
        ids = new Map();
        refs.set(kind, ids);
      }
      ids.set(ref, id);
    },
    idOf(kind, ref) {
      const id = refs.get(kind)?.get(ref);
      if (id === undefined) throw new Error(`The ${kind} ref "${ref}" was not built before it was used`);
      return id;
    },
    userId(reference) {
      const id = refs.get('user')?.get(reference) ?? inputs.externalUserIds.get(normalizeUsername(reference));
      if (id === undefined) throw new Error(`The user "${reference}" was not resolved`);
      return id;
    },
    spaces: new Map<number, SpaceItem>(),
    posts: new Map<number, PostItem>(),
    comments: new Map<number, CommentItem>(),
  };
  const output: Record<string, unknown> = {};
  for (const section of IMPORT_SECTIONS) {
    const items = file[section.name] as readonly unknown[];
    if (EXTENSION_SECTIONS.includes(section.name) && items.length === 0) continue;
    const build = inputs.builders.get(section.name);
    if (build === undefined) throw new Error(`The ${section.name} section was not prepared`);
    output[section.name] = build(context);
  }
  // Every allocated id is used: a section taking more or fewer ids than it declared is a programming error.
  for (const [sequence, count] of Object.entries(sequenceCounts(file)) as [SequenceName, number][]) {
    if (count > 0 && next.get(sequence) !== (inputs.firstIds[sequence] ?? 0) + count)
      throw new Error(`The ${sequence} ids taken differ from the ${count} allocated`);
  }
  return { plan, output: output as ImportIdMap };
}
