import type { SequenceName } from '../../../db/keys/sequences.ts';
import type { ItemKey } from '../../../db/partition.ts';
import type { CommentItem, PostItem } from '../../feeds/index.ts';
import type { SpaceItem } from '../../spaces/index.ts';
import type { ImportPlan } from '../import-plan.ts';
import type { ImportFile } from '../import-schema.ts';
import type { ReferenceScope, RefKind } from '../reference-scope.ts';

export type SectionName = keyof ImportFile;

/** A key the import will write that must not exist yet (a login, e-mail or slug guard), and the refusal. */
export interface FreeKeyProbe {
  readonly key: ItemKey;
  readonly message: string;
}

/**
 * One section of the import file. Sections run in the registry's order (sections/index.ts), each step for every
 * section before the next step, so a section may use what earlier sections registered and built. A new section is
 * a file exporting one of these (through `defineSection`), an entry in the registry and a schema entry in
 * import-schema.ts. A section that reads something before building (`prepare`) gets it in `build`; one that reads
 * nothing builds from the file alone.
 */
interface SectionSteps<Name extends SectionName> {
  readonly name: Name;
  /** Registers the section's refs and checks every reference it makes (no I/O; throws ImportError). */
  resolve(items: ImportFile[Name], scope: ReferenceScope): void;
  /** Guard keys the section writes, read before anything is written to refuse a taken one early. */
  mustBeFree?(items: ImportFile[Name]): FreeKeyProbe[];
  /** How many ids it takes from each sequence (blocks are allocated once per sequence, in section order). */
  ids?(items: ImportFile[Name]): Partial<Record<SequenceName, number>>;
}

/** A section that reads what building needs; it reads nothing for an empty section. */
export interface PreparedSection<Name extends SectionName, Output, Prepared> extends SectionSteps<Name> {
  prepare(items: ImportFile[Name], context: PrepareContext): Promise<Prepared>;
  /** Adds the section's units to the plan (pure: no I/O) and returns its part of the printed id map. */
  build(items: ImportFile[Name], context: BuildContext, prepared: Prepared): Output;
}

/** A section that builds from the file alone. */
export interface PlainSection<Name extends SectionName, Output> extends SectionSteps<Name> {
  /** Adds the section's units to the plan (pure: no I/O) and returns its part of the printed id map. */
  build(items: ImportFile[Name], context: BuildContext): Output;
}

/**
 * A section as the import runs it: each step given the whole file, so the registry's sections, whatever their
 * items, are called alike. Its preparation answers how it builds with what it read.
 */
export interface ImportSection<Name extends SectionName, Output> {
  readonly name: Name;
  resolve(file: ImportFile, scope: ReferenceScope): void;
  mustBeFree(file: ImportFile): FreeKeyProbe[];
  ids(file: ImportFile): Partial<Record<SequenceName, number>>;
  prepare(file: ImportFile, context: PrepareContext): Promise<SectionBuilder<Output>>;
}

/** How a section builds, once prepared. */
export type SectionBuilder<Output> = (context: BuildContext) => Output;

/**
 * Gives a section its type (Name, Output and Prepared are inferred from the object) and its form for the run, with
 * `builder`: how it builds with a given preparation (what a test of the plan gives instead of reading).
 */
export function defineSection<Name extends SectionName, Output, Prepared>(
  section: PreparedSection<Name, Output, Prepared>,
): ImportSection<Name, Output> & { builder(file: ImportFile, prepared: Prepared): SectionBuilder<Output> };
export function defineSection<Name extends SectionName, Output>(
  section: PlainSection<Name, Output>,
): ImportSection<Name, Output> & { builder(file: ImportFile): SectionBuilder<Output> };
export function defineSection<Name extends SectionName, Output, Prepared>(
  section: PreparedSection<Name, Output, Prepared> | PlainSection<Name, Output>,
): ImportSection<Name, Output> & { builder(file: ImportFile, prepared: Prepared): SectionBuilder<Output> } {
  const itemsOf = (file: ImportFile): ImportFile[Name] => file[section.name];
  const builder = (file: ImportFile, prepared: Prepared): SectionBuilder<Output> =>
    'prepare' in section
      ? (context) => section.build(itemsOf(file), context, prepared)
      : (context) => section.build(itemsOf(file), context);
  return {
    name: section.name,
    resolve: (file, scope) => section.resolve(itemsOf(file), scope),
    mustBeFree: (file) => section.mustBeFree?.(itemsOf(file)) ?? [],
    ids: (file) => section.ids?.(itemsOf(file)) ?? {},
    async prepare(file, context) {
      if (!('prepare' in section)) return (buildContext) => section.build(itemsOf(file), buildContext);
      return builder(file, await section.prepare(itemsOf(file), context));
    },
    builder,
  };
}

/** What a section's preparation may know: how the file's user references resolve to existing users. */
export interface PrepareContext {
  /** The id of an existing user a reference names, or undefined for a user of the file itself. */
  existingUserId(reference: string): number | undefined;
  /** When the import runs: the `now` building will use (the default `created_at`). */
  readonly now: string;
}

/** What sections share while building: the plan, ids, and what earlier sections built. */
export interface BuildContext {
  readonly plan: ImportPlan;
  /** When the import runs (the default `created_at`), as a stored UTC ISO string. */
  readonly now: string;
  /** The next id of a sequence, from the block allocated for this import. */
  takeId(sequence: SequenceName): number;
  /** Records the id an item of the file got under its ref (`lessonRef` for lessons). */
  setId(kind: RefKind, ref: string, id: number): void;
  /** The id of an item of the file by ref; the references were checked, so it exists. */
  idOf(kind: RefKind, ref: string): number;
  /** A user reference: a user of the file by ref, else an existing user by login. */
  userId(reference: string): number;
  /** Spaces and courses built so far, by id. */
  readonly spaces: Map<number, SpaceItem>;
  /** Feeds and lessons built so far, by id. */
  readonly posts: Map<number, PostItem>;
  /** Comments built so far, by id (media attached to them take their visibility). */
  readonly comments: Map<number, CommentItem>;
}
