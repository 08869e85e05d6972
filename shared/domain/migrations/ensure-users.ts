import { nextId } from '../../db/sequence.ts';
import { transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { UserRow } from '../../integrations/buddypress/source.ts';
import { renderMarkdown } from '../text/index.ts';
import {
  buildUserItem,
  findUserIdByEmail,
  findUserIdByUsername,
  isValidEmail,
  normalizeUsername,
  userCreationActions,
  usernameProblem,
} from '../users/index.ts';
import { type ChunkContext, sourceHtmlToText } from './chunk-context.ts';
import { findMaps, mapAction } from './map-repository.ts';

const PARALLEL_CREATES = 8;

/**
 * The platform user behind each source user id, creating the missing ones (a side effect of migrating their
 * memberships or content, never counted). A migrated user keeps the login and e-mail; no password or token is
 * created: the operator CLI gives them. A source id absent from the answer is a user the source no longer has.
 * A login or e-mail already taken on the platform is the same person: the source user is mapped onto that user.
 */
export async function ensureUsers(
  context: ChunkContext,
  sourceIds: readonly number[],
): Promise<Map<number, number>> {
  const source = context.run.source;
  const maps = await findMaps(source, 'user', sourceIds);
  const answer = new Map([...maps].map(([id, map]) => [id, map.target_id]));
  const missing = [...new Set(sourceIds)].filter((id) => !answer.has(id));
  if (missing.length === 0) return answer;
  const rows = await context.source.usersByIds(missing);
  if (rows.length === 0) return answer;
  // One block of ids for the chunk's new users (an id a user then does not take is a gap, as a failed create's).
  const firstId = await nextId('user', rows.length);
  for (let start = 0; start < rows.length; start += PARALLEL_CREATES) {
    const created = await Promise.all(
      rows
        .slice(start, start + PARALLEL_CREATES)
        .map((row, i) => createUser(context, row, firstId + start + i)),
    );
    created.forEach((targetId, i) => {
      answer.set(rows[start + i]!.id, targetId);
    });
  }
  return answer;
}

async function createUser(context: ChunkContext, row: UserRow, id: number): Promise<number> {
  const source = context.run.source;
  const login = normalizeUsername(row.login);
  const username = usernameProblem(login) ? `bp_user_${row.id}` : login;
  const email = isValidEmail(row.email.trim().toLowerCase())
    ? row.email.trim().toLowerCase()
    : `bp-user-${row.id}@invalid.invalid`;
  const createdAt = context.dateOf(row.registered);
  const bio = sourceHtmlToText(row.description);
  const user = {
    ...buildUserItem(
      id,
      {
        login: username,
        email,
        displayName: sourceHtmlToText(row.displayName) || username,
        firstName: row.firstName,
        lastName: row.lastName,
        bio,
        createdAt,
      },
      username,
      email,
    ),
    short_description_rendered: renderMarkdown(bio),
  };
  const map = { kind: 'user', source_id: row.id, target_id: id, run_id: context.run.run_id };
  const outcome = await transactWriteIfConditionsHold([
    mapAction(source, map, 'new'),
    ...userCreationActions(user),
  ]);
  if (outcome.written) return id;
  // Someone mapped this user meanwhile (another chunk), or the login or e-mail belongs to a platform user.
  const again = (await findMaps(source, 'user', [row.id])).get(row.id);
  if (again) return again.target_id;
  const existing = (await findUserIdByEmail(email)) ?? (await findUserIdByUsername(username));
  if (existing === undefined) throw new Error(`source user ${row.id} could not be created nor matched`);
  const linked = await transactWriteIfConditionsHold([
    mapAction(source, { ...map, target_id: existing }, 'new'),
  ]);
  if (linked.written) return existing;
  const winner = (await findMaps(source, 'user', [row.id])).get(row.id);
  if (!winner) throw new Error(`source user ${row.id} could not be mapped`);
  return winner.target_id;
}
