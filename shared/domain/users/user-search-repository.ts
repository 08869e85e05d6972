import * as v from 'valibot';
import { userSearchEntries } from '../../db/keys/users.ts';
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
