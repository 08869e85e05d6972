/**
 * Where a route's Lambda entry file is: `functions/http/<domain>/<operation-id-in-kebab-case>.ts`. The one
 * convention, so a catalogue line names no file: `listFeedReactions` of the feeds domain is
 * `functions/http/feeds/list-feed-reactions.ts`. `test/unit/catalogue.test.ts` checks every entry file is where
 * this puts it, and that no other file sits under `functions/http`.
 */
export const routeEntryFile = (domain: string, operationId: string): string =>
  `functions/http/${domain}/${operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.ts`;
