import { counterUpdate } from '../../db/counters.ts';
import { postKey, postListingKey, postTopicKey } from '../../db/keys/feeds.ts';
import { topicKey } from '../../db/keys/topics.ts';
import {
  existsCheck,
  deleteAction,
  putAction,
  type TransactAction,
  updateAction,
} from '../../db/transact.ts';
import { feedAggregateChanges } from './feed-aggregates.ts';
import { type PostItem, storedPost, storedPostListing, storedPostTopicLink } from './post-item.ts';

/**
 * The transaction actions of the feed writes (ACCESS_PATTERNS.md, "Topics on feeds…"): the feed, its topic links,
 * a check that each topic it links still exists, and every aggregate it counts in (its topics' feed totals, which
 * hold their `posts_count`, among them), all in one TransactWriteItems that
 * `writeFeedActions` (feed-repository.ts) sends.
 */

/**
 * The topic checks of replacing `before` with `after`: every topic whose link this write puts (a topic new to the
 * feed, or a kept one re-listed because the status moves the feed in or out of the published lists) must still
 * exist, a ConditionCheck on its item, so a feed write racing a topic delete is cancelled rather than linking (or
 * counting under) a deleted topic, which the delete's detach might no longer find. A topic's `posts_count` is read
 * from its feed totals item (`topicFeedStatsKey`), which `counterActions` moves in this transaction; its decrements
 * need no check: that item outlives the topic and never goes below zero (each decrement carries its floor).
 */
function topicChecks(
  before: PostItem | undefined,
  after: PostItem | undefined,
  existingTopicIds: ReadonlySet<number>,
): TransactAction[] {
  if (!after) return [];
  const previous = new Set(before?.topic_ids ?? []);
  const relisted = (before?.status === 'published') !== (after.status === 'published');
  return after.topic_ids
    .filter((id) => !previous.has(id) || (relisted && existingTopicIds.has(id)))
    .map((id) => existsCheck(topicKey(id)));
}

const counterActions = (before: PostItem | undefined, after: PostItem | undefined) =>
  feedAggregateChanges(before, after).map((change) => counterUpdate(change.key, change.deltas));

/**
 * Creating a feed: the post, its listing entry (G1 author, and while published G2 space and a G3 timeline shard),
 * one link per topic, a check that each topic still exists (a deleted one refuses the feed), and every aggregate.
 * Action 0 is the post; the topic checks follow the links, so a cancelled write names what failed.
 */
export function feedCreationActions(post: PostItem): TransactAction[] {
  return [
    putAction(storedPost(post), { ifAbsent: true }),
    putAction(storedPostListing(post)),
    ...post.topic_ids.map((topicId) => putAction(storedPostTopicLink(post, topicId))),
    ...topicChecks(undefined, post, new Set(post.topic_ids)),
    ...counterActions(undefined, post),
  ];
}

/** Attributes an update never writes whole: keys, counters other requests move, and the topic set (see below). */
const NOT_REWRITTEN = new Set(['pk', 'sk', 'comments_count', 'reactions_count', 'topic_ids']);
/**
 * Index and derived attributes a state may lack: removed when the new state does not carry them (the post item
 * carries no index keys since its listing entry does; a post stored before that loses them on its next update).
 */
const REMOVABLE = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'topic_signature'];

/**
 * Replacing a feed's state `before` (as read, consistently) with `after`. The post is updated attribute by
 * attribute (never `comments_count` and `reactions_count`, which comments and likes move concurrently) on the
 * condition that it is still the state read (`updated_at`), so two updates cannot both apply to one state.
 * `topic_ids` is rewritten only when the topics changed, so a topic detached meanwhile is never put back.
 * Links: removed topics' links go, added topics' links come, kept ones are re-listed when the status moves the
 * feed in or out of the published lists (only for topics that still exist, on the condition that the link does).
 * Action 0 is the post.
 */
export function feedUpdateActions(
  before: PostItem,
  after: PostItem,
  existingTopicIds: ReadonlySet<number>,
): TransactAction[] {
  const stored: Record<string, unknown> = storedPost(after);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': before.updated_at };
  const sets: string[] = [];
  let index = 0;
  for (const [name, value] of Object.entries(stored)) {
    if (NOT_REWRITTEN.has(name)) continue;
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    sets.push(`#a${index} = :a${index}`);
    index++;
  }
  const removes = REMOVABLE.filter((name) => !(name in stored)).map((name) => {
    names[`#a${index}`] = name;
    return `#a${index++}`;
  });
  const topicsChanged = before.topic_ids.join(',') !== after.topic_ids.join(',');
  if (topicsChanged) {
    names['#topics'] = 'topic_ids';
    if (after.topic_ids.length > 0) {
      values[':topics'] = new Set(after.topic_ids);
      sets.push('#topics = :topics');
    } else {
      removes.push('#topics');
    }
  }
  names['#updated'] = 'updated_at';
  const postUpdate = updateAction(postKey(after.id), {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'attribute_exists(pk) AND #updated = :seen',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });

  const old = new Set(before.topic_ids);
  const next = new Set(after.topic_ids);
  const relisted = (before.status === 'published') !== (after.status === 'published');
  const linkActions: TransactAction[] = [];
  for (const topicId of old) {
    if (!next.has(topicId)) linkActions.push(deleteAction(postTopicKey(after.id, topicId)));
    else if (relisted && existingTopicIds.has(topicId)) {
      linkActions.push(
        putAction(storedPostTopicLink(after, topicId), {
          condition: { ConditionExpression: 'attribute_exists(pk)' },
        }),
      );
    }
  }
  for (const topicId of next) {
    if (!old.has(topicId)) linkActions.push(putAction(storedPostTopicLink(after, topicId)));
  }
  // The listing entry changes only with what it holds (the status): an edit of the text leaves every list alone.
  const listing = storedPostListing(after);
  const listingChanged = JSON.stringify(storedPostListing(before)) !== JSON.stringify(listing);
  return [
    postUpdate,
    ...(listingChanged ? [putAction(listing)] : []),
    ...linkActions,
    ...topicChecks(before, after, existingTopicIds),
    ...counterActions(before, after),
  ];
}

/**
 * Deleting a feed: the post (on the condition that it is the state read, counters included, so the comments and
 * likes to sweep afterwards are exactly those counted), its topic links, and every count it contributed to.
 * Action 0 is the post.
 */
export function feedDeletionActions(post: PostItem, existingTopicIds: ReadonlySet<number>): TransactAction[] {
  const linked = new Set([...post.topic_ids]);
  return [
    deleteAction(postKey(post.id), {
      ConditionExpression:
        'attribute_exists(pk) AND updated_at = :seen AND comments_count = :comments AND reactions_count = :reactions',
      ExpressionAttributeValues: {
        ':seen': post.updated_at,
        ':comments': post.comments_count,
        ':reactions': post.reactions_count,
      },
    }),
    deleteAction(postListingKey(post.id)),
    ...[...linked].map((topicId) => deleteAction(postTopicKey(post.id, topicId))),
    ...topicChecks(post, undefined, existingTopicIds),
    ...counterActions(post, undefined),
  ];
}
