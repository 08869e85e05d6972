import * as v from 'valibot';
import { userSearchEntries, userSearchKey } from '../../db/keys/users.ts';
import { queryAll } from '../../db/reads.ts';

const SearchEntrySchema = v.object({ user_id: v.pipe(v.number(), v.integer()) });

/**
 * The user search index (GSI3 `USERSEARCH`, one entry per display name, login and e-mail, sorted by lower-cased
 * value): the user ids of the entries whose value starts with `prefix` (every entry without one), in value order,
 * one Query page of at most `pageSize` entries per yield. A user matching on several fields appears once per
 * field. The caller stops iterating when it has enough, so a search reads only the pages it uses.
 */
export async function* userIdsByNamePrefix(
  prefix: string | undefined,
  pageSize: number,
): AsyncGenerator<number[]> {
  for await (const page of queryAll(userSearchEntries(prefix), SearchEntrySchema, { pageSize })) {
    yield page.map((entry) => entry.user_id);
  }
}

const LoginEntrySchema = v.object({ sk: v.string(), user_id: v.pipe(v.number(), v.integer()) });

/**
 * Every user's id, once each, one search-index page at a time (operator paths that visit every member, such as
 * `storage:upgrade`; never a request): the login entries of the user search index, which every user has.
 */
export async function* everyUserId(pageSize = 200): AsyncGenerator<number[]> {
  const loginSort = userSearchKey(0, 'login').sk;
  for await (const page of queryAll(userSearchEntries(), LoginEntrySchema, { pageSize })) {
    yield page.filter((entry) => entry.sk === loginSort).map((entry) => entry.user_id);
  }
}
