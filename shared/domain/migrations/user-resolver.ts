import * as v from 'valibot';
import { putItemsInBatches } from '../../db/batch-write.ts';
import { migrationUserMapKey } from '../../db/keys/migrations.ts';
import { userKey } from '../../db/keys/users.ts';
import { batchGetItems } from '../../db/reads.ts';
import { findGuardHolders } from '../users/index.ts';
import type { ChunkInput } from './chunk-input.ts';
import type { ChunkEntry } from './chunk-plan.ts';
import {
  createUsersBehindGuards,
  migratedUser,
  type UserCandidate,
  writeUsersBehindGuards,
} from './user-creation.ts';
import { idSpaceCovering, TargetIds } from './id-spaces.ts';

/** A user map (`target_id`) or a user item, read together. */
const FoundSchema = v.object({ pk: v.string(), target_id: v.optional(v.number()) });

/**
 * This process's answers for the current run: source user id → platform user id, or null for a user the source no
 * longer has. A chunk asking for a user another chunk of this process is creating waits for that creation instead
 * of racing it. Maps are never wrong once written (a source user keeps its platform user), so the cache only saves
 * reads; it is dropped when another run starts.
 */
let cache: { runId: string; users: Map<number, Promise<number | null>> } | undefined;

/**
 * The platform user behind each source user id (absent from the answer: the source has no such user), creating
 * the missing ones: a side effect of migrating their memberships or content, never counted. A migrated user keeps
 * the login and e-mail, and gets no password or token (the operator CLI gives them). A source user whose e-mail or
 * login is already taken on the platform is that person: it is mapped onto the existing user. The warnings are
 * those of the users this call created (images not copied), for its chunk to report.
 */
export async function resolveUsers(
  context: ChunkInput,
  sourceIds: readonly number[],
): Promise<{ users: Map<number, number>; warnings: ChunkEntry[] }> {
  if (cache?.runId !== context.run.run_id) cache = { runId: context.run.run_id, users: new Map() };
  const { users } = cache;
  const lookups = new Map<number, Promise<number | null>>();
  const fresh: number[] = [];
  for (const id of new Set(sourceIds)) {
    const known = users.get(id);
    if (known) lookups.set(id, known);
    else fresh.push(id);
  }
  const work = fresh.length > 0 ? resolveFresh(context, fresh) : undefined;
  if (work) {
    for (const id of fresh) {
      const lookup = work.then(({ answer }) => answer.get(id) ?? null);
      users.set(id, lookup);
      lookups.set(id, lookup);
    }
    // A failed resolution is forgotten, so the next chunk (or this one's redelivery) tries again.
    work.catch(() => {
      for (const id of fresh) users.delete(id);
    });
  }
  const answer = new Map<number, number>();
  for (const [id, lookup] of lookups) {
    const target = await lookup;
    if (target !== null) answer.set(id, target);
  }
  return { users: answer, warnings: work ? (await work).warnings : [] };
}

/**
 * A source user is resolved when the user at its id-space id exists (created by a run: its user item is written
 * last, so its guards and search entries exist too) or when a map names the platform user it was matched onto.
 * Ids of a segment this run reserved cannot have been resolved by an earlier run: they are not read, and one this
 * run resolved already (in another process) is recognised when its guards turn out to be held (`placeUsers`).
 */
async function resolveFresh(
  context: ChunkInput,
  ids: readonly number[],
): Promise<{ answer: Map<number, number>; warnings: ChunkEntry[] }> {
  const { source, run_id: runId } = context.run;
  const space = await idSpaceCovering(source, 'user', ids, runId);
  const own = new TargetIds(ids.map((id) => [id, space.coveredTarget(id)]));
  const earlier = ids.filter((id) => space.reservedBy(id) !== runId);
  const found = new Map(
    (
      await batchGetItems(
        earlier.flatMap((id) => [migrationUserMapKey(source, id), userKey(own.of(id))]),
        FoundSchema,
        { consistent: true },
      )
    ).map((item) => [item.pk, item]),
  );
  const answer = new Map<number, number>();
  for (const id of earlier) {
    const map = found.get(migrationUserMapKey(source, id).pk);
    if (map?.target_id !== undefined) answer.set(id, map.target_id);
    else if (found.has(userKey(own.of(id)).pk)) answer.set(id, own.of(id));
  }
  const missing = ids.filter((id) => !answer.has(id));
  if (missing.length === 0) return { answer, warnings: [] };
  const rows = await context.source.usersByIds(missing);
  const { placed, warnings } = await placeUsers(
    context,
    rows.map((row) => migratedUser(context, row, own.of(row.id))),
  );
  // Maps only for users matched onto someone else: a user at its own id needs none.
  await putItemsInBatches(
    [...placed]
      .filter(([sourceId, targetId]) => targetId !== own.of(sourceId))
      .map(([sourceId, targetId]) => ({
        ...migrationUserMapKey(source, sourceId),
        entity: 'migration_map',
        source_id: sourceId,
        target_id: targetId,
      })),
  );
  for (const [sourceId, targetId] of placed) answer.set(sourceId, targetId);
  return { answer, warnings };
}

/**
 * Creates what can be created (guards first, in transactions, then the items behind them in batches) and maps the
 * rest onto whoever holds their e-mail or login. A guard already held by the user's own id-space id is this
 * user's, from an earlier delivery: its items are written again only if missing, so counters an earlier run's end
 * moved onto the user item are never overwritten.
 */
async function placeUsers(
  context: ChunkInput,
  candidates: readonly UserCandidate[],
  attempt = 0,
): Promise<{ placed: Map<number, number>; warnings: ChunkEntry[] }> {
  const placed = new Map<number, number>();
  const { created, refused, warnings } = await createUsersBehindGuards(context, candidates);
  for (const { row, user } of created) placed.set(row.id, user.id);
  if (refused.length === 0) return { placed, warnings };
  const holders = await findGuardHolders(
    refused.map(({ user }) => user.username),
    refused.map(({ user }) => user.email),
  );
  const ours: UserCandidate[] = [];
  const retry: UserCandidate[] = [];
  for (const candidate of refused) {
    const { row, user } = candidate;
    const byEmail = holders.byEmail.get(user.email);
    const byLogin = holders.byUsername.get(user.username);
    if (byEmail === user.id || byLogin === user.id) {
      ours.push(candidate);
      placed.set(row.id, user.id);
    } else if (byEmail !== undefined) placed.set(row.id, byEmail);
    else if (byLogin !== undefined) placed.set(row.id, byLogin);
    // Refused, yet no holder now: the holder went away meanwhile; try to create it again.
    else retry.push(candidate);
  }
  if (ours.length > 0) {
    const existing = new Set(
      (
        await batchGetItems(
          ours.map(({ user }) => userKey(user.id)),
          v.object({ id: v.number() }),
          { consistent: true },
        )
      ).map((user) => user.id),
    );
    const rewritten = await writeUsersBehindGuards(
      context,
      ours.filter(({ user }) => !existing.has(user.id)),
    );
    warnings.push(...rewritten);
  }
  if (retry.length === 0) return { placed, warnings };
  if (attempt >= 3)
    throw new Error(`source users ${retry.map(({ row }) => row.id).join(', ')}: guards keep changing`);
  const again = await placeUsers(context, retry, attempt + 1);
  for (const [id, target] of again.placed) placed.set(id, target);
  return { placed, warnings: [...warnings, ...again.warnings] };
}
