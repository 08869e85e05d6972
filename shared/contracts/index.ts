import type { Operation } from './operation.ts';
import * as feeds from './feeds.ts';
import * as feedComments from './feed-comments.ts';
import * as live from './live.ts';
import * as notifications from './notifications.ts';
import * as platform from './platform.ts';
import * as topics from './topics.ts';
import * as quizzes from './quizzes.ts';
import * as quizResults from './quiz-results.ts';
import * as settings from './settings.ts';
import * as spaces from './spaces.ts';
import * as invitations from './invitations.ts';
import * as courses from './courses.ts';
import * as media from './media.ts';
import * as migrations from './migrations.ts';
import * as profiles from './profiles.ts';
import * as profileLists from './profile-lists.ts';

/**
 * The contract registry: every operation of every contract module, by `operationId`. The OpenAPI generator and
 * the catalogue tests read it; handlers import their own contract directly (so bundles stay small).
 *
 * Adding a contract module = one line in MODULES. Every export that looks like an operation is registered;
 * helpers (schemas, field builders) are skipped.
 */
const MODULES: readonly Readonly<Record<string, unknown>>[] = [
  platform,
  notifications,
  live,
  topics,
  feeds,
  feedComments,
  quizzes,
  quizResults,
  settings,
  spaces,
  invitations,
  courses,
  media,
  migrations,
  profiles,
  profileLists,
];

export function isOperation(value: unknown): value is Operation {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Operation>;
  return (
    typeof candidate.operationId === 'string' &&
    typeof candidate.summary === 'string' &&
    Array.isArray(candidate.tags) &&
    Array.isArray(candidate.errors) &&
    typeof candidate.response === 'object' &&
    candidate.response !== null
  );
}

function collect(modules: readonly Readonly<Record<string, unknown>>[]): Readonly<Record<string, Operation>> {
  const registry: Record<string, Operation> = {};
  for (const module of modules) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!isOperation(value)) continue;
      const existing = registry[value.operationId];
      if (existing && existing !== value) {
        throw new Error(`Duplicate contract for operationId "${value.operationId}" (export ${exportName})`);
      }
      registry[value.operationId] = value;
    }
  }
  return Object.freeze(registry);
}

export const CONTRACTS: Readonly<Record<string, Operation>> = collect(MODULES);

/** The contract of a catalogued operation, or an error naming the missing one. */
export function contractFor(operationId: string): Operation {
  const operation = CONTRACTS[operationId];
  if (!operation) throw new Error(`No contract registered for operationId "${operationId}"`);
  return operation;
}
