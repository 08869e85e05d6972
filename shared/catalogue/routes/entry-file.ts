/**
 * Where a route's Lambda entry file is: `functions/http/<domain>/<operation-id-in-kebab-case>.ts`. The one
 * convention, so a catalogue line names no file: `listFeedReactions` of the feeds domain is
 * `functions/http/feeds/list-feed-reactions.ts`. A line that says `entry: 'generated'` has no hand-written file:
 * the build writes it at the same path under `.generated/` (infra/generated-entries.ts). `test/unit/catalogue.test.ts`
 * checks every entry file is where this puts it, and that no other file sits under `functions/http`.
 */
export const routeEntryFile = (domain: string, operationId: string): string =>
  `functions/http/${domain}/${kebabCase(operationId)}.ts`;

/** The folder (from the repository root, git-ignored) of the entry files the build generates. */
export const GENERATED_ENTRIES_DIR = '.generated';

export const generatedEntryFile = (domain: string, operationId: string): string =>
  `${GENERATED_ENTRIES_DIR}/${routeEntryFile(domain, operationId)}`;

/** `listFeedReactions` → `list-feed-reactions` (entry files and use case modules are named so). */
export const kebabCase = (camel: string): string =>
  camel.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
