import * as v from 'valibot';
import { sameItem } from '../../db/same-item.ts';
import { authorPosts, postKey, postListingKey } from '../../db/keys/feeds.ts';
import { itemKeyId } from '../../db/partition.ts';
import { batchGetRawItems, parseItem, queryAll } from '../../db/reads.ts';
import { GLOBAL_INDEXES } from '../../db/table-definition.ts';
import {
  conditionCheckAction,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import type { FeedTotalsTally } from './feed-totals-recount.ts';
import { type PostItem, PostItemSchema, storedPostListing } from './post-item.ts';

/**
 * Brings one author's feeds and lessons to the current storage layout (the operator's `storage:upgrade`): every
 * post has a listing entry carrying exactly the index keys `storedPostListing` gives it today, and the post item
 * carries none. Layouts it meets on older stages: post items carrying the author, space and timeline keys
 * themselves (`USER#<u>#POSTS`, `SPACE#<s|0>#POSTS`, `FEEDS`) and no listing entry; listing entries with a `SPACE#0`
 * entry for global feeds, or, for unpublished feeds, without their status list's key.
 *
 * Pages through the author's list (GSI1 `authorPosts`, where both layouts list every post of the author), reading
 * each page's posts and listing entries in one consistent BatchGetItem. Each post is upgraded by a transaction of
 * its own, conditioned on the post being unchanged since it was read (`updated_at` and `status`), so a concurrent
 * edit is never overwritten (it is reported, and a later run upgrades it); a post already in the current layout is
 * not written, so a second run writes nothing. Every feed read is also added to `tally` (the totals recount).
 */
export interface ListingUpgradeReport {
  examined: number;
  upgraded: number;
  changed_meanwhile: number;
}

const INDEX_ATTRIBUTES = GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]);
const PostIdSchema = v.object({ pk: v.string(), sk: v.string(), post_id: v.optional(v.number()) });
type RawItem = Record<string, unknown>;

export async function upgradeAuthorFeeds(
  userId: number,
  tally: FeedTotalsTally,
  report: ListingUpgradeReport,
  options: { dryRun: boolean },
): Promise<void> {
  for await (const page of queryAll(authorPosts(userId), PostIdSchema, { pageSize: 50 })) {
    const ids = page.map((entry) => entry.post_id ?? Number(entry.pk.slice('POST#'.length)));
    const keys = ids.flatMap((id) => [postKey(id), postListingKey(id)]);
    const found = new Map((await batchGetRawItems(keys, true)).map((item) => [itemKeyId(item), item]));
    for (const id of ids) {
      const raw = found.get(itemKeyId(postKey(id)));
      if (!raw) continue; // a listing whose post a concurrent delete removed
      const post = parseItem(PostItemSchema, raw);
      report.examined++;
      tally.count(post);
      const actions = upgradeActions(post, raw, found.get(itemKeyId(postListingKey(id))));
      if (actions.length === 0) continue;
      report.upgraded++;
      if (options.dryRun) continue;
      const outcome = await transactWriteIfConditionsHold(actions);
      if (!outcome.written) {
        report.upgraded--;
        report.changed_meanwhile++;
      }
    }
  }
}

/** Nothing when the post is already in the current layout; else its listing Put and the post's key removal. */
function upgradeActions(post: PostItem, raw: RawItem, listing: RawItem | undefined): TransactAction[] {
  const wanted = storedPostListing(post);
  const keysOnPost = INDEX_ATTRIBUTES.filter((name) => name in raw);
  if (keysOnPost.length === 0 && listing && sameItem(listing, wanted)) return [];
  const unchanged = {
    ConditionExpression: 'updated_at = :updated AND #status = :status',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':updated': post.updated_at, ':status': post.status },
  };
  const postAction =
    keysOnPost.length === 0
      ? conditionCheckAction(postKey(post.id), unchanged)
      : updateAction(postKey(post.id), {
          ...unchanged,
          UpdateExpression: `REMOVE ${keysOnPost.join(', ')}`,
        });
  return [postAction, putAction(wanted)];
}
