import type { QueueName } from '../queues.ts';
import type { SecretName } from '../secrets.ts';
import type { GrantsOf, QueueEntryOf, RouteEntryOf, RouteLineOf } from '../types.ts';
import { generatedEntryFile, routeEntryFile } from './entry-file.ts';

/**
 * What infrastructure code (CDK, the local stack) handles: any queue name, so tests can synthesize catalogues with
 * queues of their own; secrets are always the catalogued ones.
 */
export type RouteEntry = RouteEntryOf<string, SecretName>;
export type QueueEntry = QueueEntryOf<string, string, SecretName>;
export type Grants = GrantsOf<string, SecretName>;

/** A line of this catalogue's route lists: its grants name only catalogued queues; its entry file is implied. */
export type CatalogueRoute = RouteLineOf<QueueName, SecretName>;

/** A domain's route lines with their entry files, placed by the one convention (entry-file.ts). */
export const withEntryFiles = (domain: string, lines: readonly CatalogueRoute[]): RouteEntry[] =>
  lines.map((line) => ({
    ...line,
    entry:
      line.entry === 'generated'
        ? generatedEntryFile(domain, line.operationId)
        : routeEntryFile(domain, line.operationId),
  }));
