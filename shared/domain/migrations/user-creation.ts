import { putItemsInBatches } from '../../db/batch-write.ts';
import { emailGuardKey, usernameGuardKey } from '../../db/keys/users.ts';
import { MAX_TRANSACTION_ACTIONS, transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { UserRow } from '../../integrations/buddypress/source.ts';
import { renderMarkdown } from '../text/index.ts';
import {
  buildUserItem,
  isValidEmail,
  normalizeUsername,
  type UserItem,
  userGuardActions,
  userItemsBehindGuards,
  usernameProblem,
} from '../users/index.ts';
import { type ChunkInput, sourceHtmlToText } from './chunk-input.ts';
import type { ChunkEntry } from './chunk-plan.ts';
import { planImagesOf } from './source-images.ts';

export interface UserCandidate {
  readonly row: UserRow;
  readonly user: UserItem;
}

/** Users per guard transaction: two guards each. */
const USERS_PER_TRANSACTION = Math.floor(MAX_TRANSACTION_ACTIONS / 2);

/**
 * The platform user a source user becomes, at its id-space id: the login (or `bp_user_<id>` when it is not a valid
 * user name here) and the e-mail lower-cased (or a placeholder when invalid), the names, the bio, the registration
 * date (`preserve_dates`, else the run's clock). Deterministic: every delivery builds the same item.
 */
export function migratedUser(context: ChunkInput, row: UserRow, id: number): UserCandidate {
  const login = normalizeUsername(row.login);
  const username = usernameProblem(login) ? `bp_user_${row.id}` : login;
  const email = row.email.trim().toLowerCase();
  const validEmail = isValidEmail(email) ? email : `bp-user-${row.id}@invalid.invalid`;
  const bio = sourceHtmlToText(row.description);
  const user = {
    ...buildUserItem(
      id,
      {
        login: username,
        email: validEmail,
        displayName: sourceHtmlToText(row.displayName) || username,
        firstName: row.firstName,
        lastName: row.lastName,
        bio,
        createdAt: context.dateOf(row.registered),
      },
      username,
      validEmail,
    ),
    short_description_rendered: renderMarkdown(bio),
  };
  return { row, user };
}

/** Guard transactions sent at once: a round's transactions never share a guard, so none cancels another. */
const PARALLEL_TRANSACTIONS = 4;

/**
 * Takes the login and e-mail guards of as many candidates as it can, 50 users per transaction and up to four
 * transactions at once (a transaction cancelled by some candidates' guards is tried again without them in the next
 * round), then writes the users' items behind their guards in batches. Answers the users created and those refused
 * (a guard held already: by the platform user they are, or by themselves after an earlier delivery), and the
 * warnings of their images. Two candidates sharing a login or an e-mail never go in one round (one transaction
 * would name an item twice; two concurrent ones would cancel each other): the second waits for a later round and
 * is refused there.
 */
export async function createUsersBehindGuards(
  context: ChunkInput,
  candidates: readonly UserCandidate[],
): Promise<{ created: UserCandidate[]; refused: UserCandidate[]; warnings: ChunkEntry[] }> {
  const created: UserCandidate[] = [];
  const refused: UserCandidate[] = [];
  let pending = [...candidates];
  while (pending.length > 0) {
    const { batches, later } = roundOf(pending);
    const outcomes = await Promise.all(
      batches.map((batch) =>
        transactWriteIfConditionsHold(batch.flatMap(({ user }) => userGuardActions(user))),
      ),
    );
    batches.forEach((batch, b) => {
      const outcome = outcomes[b];
      if (outcome?.written) {
        created.push(...batch);
        return;
      }
      const failed = new Set((outcome?.failed ?? []).map((index) => Math.floor(index / 2)));
      batch.forEach((candidate, index) => {
        if (failed.has(index)) refused.push(candidate);
        else later.unshift(candidate);
      });
    });
    pending = later;
  }
  const warnings = await writeUsersBehindGuards(context, created);
  return { created, refused, warnings };
}

/**
 * One round of guard transactions: up to PARALLEL_TRANSACTIONS batches of USERS_PER_TRANSACTION candidates, no
 * guard key twice in the round; the candidates that did not fit wait for the next round, in their order.
 */
function roundOf(pending: readonly UserCandidate[]): { batches: UserCandidate[][]; later: UserCandidate[] } {
  const batches: UserCandidate[][] = [];
  const later: UserCandidate[] = [];
  const guards = new Set<string>();
  let batch: UserCandidate[] = [];
  for (const candidate of pending) {
    const keys = [usernameGuardKey(candidate.user.username).pk, emailGuardKey(candidate.user.email).pk];
    if (batch.length >= USERS_PER_TRANSACTION && batches.length + 1 < PARALLEL_TRANSACTIONS) {
      batches.push(batch);
      batch = [];
    }
    if (batch.length >= USERS_PER_TRANSACTION || keys.some((key) => guards.has(key))) later.push(candidate);
    else {
      batch.push(candidate);
      for (const key of keys) guards.add(key);
    }
  }
  if (batch.length > 0) batches.push(batch);
  return { batches, later };
}

/**
 * The rest of users whose guards are held: their avatar and cover copied (when the run copies images), then their
 * search entries, then their user items, all plain idempotent puts. The user item goes last: its existence is
 * what says the user is whole (user-resolver.ts). Answers the warnings of the images not copied.
 */
export async function writeUsersBehindGuards(
  context: ChunkInput,
  candidates: readonly UserCandidate[],
): Promise<ChunkEntry[]> {
  const { images, warnings } = await planImagesOf(
    context,
    'member',
    candidates.map(({ row, user }) => ({
      sourceId: row.id,
      uploaderId: user.id,
      objectId: user.id,
      createdAt: user.created_at,
    })),
  );
  const parts = candidates.map(({ row, user }) => {
    const copied = images.get(row.id);
    return userItemsBehindGuards({
      ...user,
      avatar: copied?.avatarUrl ?? user.avatar,
      cover_photo: copied?.coverUrl ?? user.cover_photo,
    });
  });
  await putItemsInBatches(parts.flatMap((part) => part.searchEntries));
  await putItemsInBatches(parts.map((part) => part.user));
  return warnings;
}
