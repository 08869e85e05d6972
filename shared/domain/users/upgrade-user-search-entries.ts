import { userKey, userSearchKey } from '../../db/keys/users.ts';
import { sameItem } from '../../db/same-item.ts';
import { itemKeyId } from '../../db/partition.ts';
import { batchGetRawItems, parseItem } from '../../db/reads.ts';
import { putsIfUnchangedSince } from '../../db/transact.ts';
import { storedSearchEntries, UserItemSchema } from './user-item.ts';
import { everyUserId } from './user-lookups.ts';

export interface UserSearchEntriesReport {
  /** Users read. */
  examined: number;
  /** Search entries written (three per user of an older stage). */
  items_written: number;
  changed_meanwhile: number;
}

/** Users per consistent BatchGetItem: the user item and its three entries, four keys each. */
const USERS_PER_READ = 25;

/**
 * The users' part of the operator's `storage:upgrade`: every user's three search entries made to carry the user
 * (`storedSearchEntries`: the fields, photo and status the space user search answers from), which entries written
 * before never did. Member by member (`everyUserId`, no Scan), each page's users and entries read in consistent
 * BatchGetItems; a user whose entries are missing or differ is written by a transaction of its own, conditioned on
 * the user item's `updated_at` as read (every write of those fields sets it, and writes the entries too), so a
 * concurrent change is never overwritten: it is reported as `changed_meanwhile`. A second run writes nothing.
 */
export async function upgradeUserSearchEntries(options: {
  dryRun: boolean;
}): Promise<UserSearchEntriesReport> {
  const report: UserSearchEntriesReport = { examined: 0, items_written: 0, changed_meanwhile: 0 };
  for await (const userIds of everyUserId()) {
    for (let start = 0; start < userIds.length; start += USERS_PER_READ) {
      const ids = userIds.slice(start, start + USERS_PER_READ);
      const found = new Map(
        (
          await batchGetRawItems(
            ids.flatMap((id) => [
              userKey(id),
              userSearchKey(id, 'name'),
              userSearchKey(id, 'login'),
              userSearchKey(id, 'email'),
            ]),
            true,
          )
        ).map((item) => [itemKeyId(item), item]),
      );
      for (const id of ids) {
        const raw = found.get(itemKeyId(userKey(id)));
        if (!raw) continue;
        report.examined++;
        const user = parseItem(UserItemSchema, raw);
        const stale = storedSearchEntries(user).filter(
          (entry) => !sameItem(found.get(itemKeyId(entry)), entry),
        );
        if (stale.length === 0) continue;
        if (options.dryRun || (await putsIfUnchangedSince(userKey(user.id), user.updated_at, stale)))
          report.items_written += stale.length;
        else report.changed_meanwhile++;
      }
    }
  }
  return report;
}
