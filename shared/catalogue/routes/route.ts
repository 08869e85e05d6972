import type { QueueName } from '../queues.ts';
import type { SecretName } from '../secrets.ts';
import type { GrantsOf, QueueEntryOf, RouteEntryOf } from '../types.ts';

/**
 * What infrastructure code (CDK, the local stack) handles: any queue name, so tests can synthesize catalogues with
 * queues of their own; secrets are always the catalogued ones.
 */
export type RouteEntry = RouteEntryOf<string, SecretName>;
export type QueueEntry = QueueEntryOf<string, string, SecretName>;
export type Grants = GrantsOf<string, SecretName>;

/** A line of this catalogue's route lists: its grants name only catalogued queues. */
export type CatalogueRoute = RouteEntryOf<QueueName, SecretName>;
