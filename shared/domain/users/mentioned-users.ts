import { findUserIdByUsername } from './user-lookups.ts';

/** At most this many `@mentions` of one text are resolved (and notified): a long list is not a fan-out lever. */
const MAX_MENTIONS = 20;

/** The ids of the users a text mentions, once each, unknown names and `excluded` (the actor…) left out. */
export async function mentionedUserIds(
  usernames: readonly string[],
  excluded: ReadonlySet<number>,
): Promise<number[]> {
  const ids = await Promise.all(usernames.slice(0, MAX_MENTIONS).map((name) => findUserIdByUsername(name)));
  return [...new Set(ids.filter((id): id is number => id !== undefined && !excluded.has(id)))];
}
