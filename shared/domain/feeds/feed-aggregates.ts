import { CounterDeltas } from '../../db/counters.ts';
import { feedStats, feedStatusStats, topicFeedStatsKey } from '../../db/keys/feeds.ts';
import { spacePostCounts } from '../../db/keys/spaces.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { entityShardKeys, shardKey, shardOf } from '../../db/sharded-counters.ts';
import { isListedFeed, type PostItem, topicSignature } from './post-item.ts';

/**
 * What one feed contributes to the aggregates the feed lists read their totals from. Every write that creates,
 * changes or deletes a feed moves exactly these counters in the same transaction (the import too), so a total is
 * one read whatever the number of feeds:
 *
 * - the author's stats (`userStatsKey`): `feeds_published`, `feeds_published_space:<sid|0>`, and by visibility
 *   `feeds_published_public` or `feeds_published_members:<sid>`; an unpublished feed counts `feeds_status:<s>`
 *   there, and its status (`draft`, `pending`, `scheduled`) on the site's status totals (`feedStatusStats`, sharded
 *   by the feed's id like the timeline's);
 * - the space's `posts_count` (`spacePostCounts`, sharded by the feed's id): published feeds of the space;
 * - the timeline stats (`feedStats`, sharded: the shard of the feed's id, so a feed's increment and decrement meet
 *   on one item; that shard in each of its replicas): `public` (global feeds and public spaces) or `members:<sid>`;
 * - one counter per topic it carries (`topicFeedStatsKey`), named `<topic set>|<p|m><sid|0>` (see the key);
 * - the author's `total_points` on the user item (`userKey`): FEED_POINTS while published (README "Profile
 *   scores"), so every member summary shows it from the one item it reads.
 *
 * The last is also each topic's `posts_count` (the sum of its item's counters: `withPostCounts`, topics domain).
 */
/** `feed`: a feed's own `comments_count`, which a comment moves (comment-aggregates.ts). */
export type FeedAggregateKind = 'user' | 'points' | 'space' | 'timeline' | 'status' | 'topic' | 'feed';

/** Points a published feed earns its author (README "Profile scores"). */
export const FEED_POINTS = 5;

export interface FeedAggregate {
  readonly kind: FeedAggregateKind;
  readonly key: ItemKey;
  readonly deltas: Readonly<Record<string, number>>;
  /** The attributes an aggregate item carries besides its counters (for writers that create it whole). */
  readonly identity: Readonly<Record<string, unknown>>;
}

/** `p<sid>` for feeds everyone may see, `m<sid>` for members of a private or secret space; 0 = global feed. */
export const visibilityScope = (post: Pick<PostItem, 'space_id' | 'space_visibility'>): string =>
  `${post.space_visibility === 'public' ? 'p' : 'm'}${post.space_id ?? 0}`;

/** The name of a feed's counter on each of its topics' stats items. */
export const topicFeedCounterName = (signature: string, scope: string): string => `${signature}|${scope}`;

/**
 * The contributions of a feed in the state given. `topicSignatureCounted` is what the stored feed is counted under
 * (its `topic_signature`); omit it for a state about to be written, whose signature follows from `topic_ids`.
 */
export function feedAggregates(
  post: PostItem,
  options: { topicSignatureCounted?: string | undefined; stored?: boolean } = {},
): FeedAggregate[] {
  if (post.type === 'course_lesson') return [];
  const author = { kind: 'user' as const, key: userStatsKey(post.user_id) };
  const authorIdentity = { entity: 'user_stats', user_id: post.user_id };
  if (!isListedFeed(post)) {
    return [
      { ...author, deltas: { [`feeds_status:${post.status}`]: 1 }, identity: authorIdentity },
      {
        kind: 'status',
        key: shardKey(feedStatusStats(), shardOf(feedStatusStats(), post.id)),
        deltas: { [post.status]: 1 },
        identity: { entity: 'feed_status_stats' },
      },
    ];
  }
  const spaceId = post.space_id ?? 0;
  const isPublic = post.space_visibility === 'public';
  const aggregates: FeedAggregate[] = [
    {
      ...author,
      deltas: {
        feeds_published: 1,
        [`feeds_published_space:${spaceId}`]: 1,
        [isPublic ? 'feeds_published_public' : `feeds_published_members:${spaceId}`]: 1,
      },
      identity: authorIdentity,
    },
    // The feed's shard of the timeline totals in every replica (all in this transaction: replicas never differ).
    ...entityShardKeys(feedStats(), post.id).map((key) => ({
      kind: 'timeline' as const,
      key,
      deltas: { [isPublic ? 'public' : `members:${spaceId}`]: 1 },
      identity: { entity: 'feed_stats' },
    })),
    // The user item exists before any of its feeds: nothing to create.
    { kind: 'points', key: userKey(post.user_id), deltas: { total_points: FEED_POINTS }, identity: {} },
  ];
  if (post.space_id !== null) {
    aggregates.push({
      kind: 'space',
      key: shardKey(spacePostCounts(post.space_id), shardOf(spacePostCounts(post.space_id), post.id)),
      deltas: { posts_count: 1 },
      identity: { entity: 'space_post_count', space_id: post.space_id },
    });
  }
  const signature = options.stored ? options.topicSignatureCounted : topicSignature(post.topic_ids);
  if (signature) {
    const counter = topicFeedCounterName(signature, visibilityScope(post));
    for (const topicId of signature.split('.').map(Number)) {
      aggregates.push({
        kind: 'topic',
        key: topicFeedStatsKey(topicId),
        deltas: { [counter]: 1 },
        identity: { entity: 'topic_feed_stats', topic_id: topicId },
      });
    }
  }
  return aggregates;
}

/** The contributions of a feed as stored (counted under its stored `topic_signature`). */
export const storedFeedAggregates = (post: PostItem): FeedAggregate[] =>
  feedAggregates(post, { stored: true, topicSignatureCounted: post.topic_signature });

/**
 * The net counter moves of replacing `before` (as stored; undefined for a create) with `after` (undefined for a
 * delete), summed per aggregate item (a transaction may touch an item once); unchanged items are left out.
 */
export function feedAggregateChanges(
  before: PostItem | undefined,
  after: PostItem | undefined,
): { key: ItemKey; deltas: CounterDeltas }[] {
  const changes = new Map<string, { key: ItemKey; deltas: CounterDeltas }>();
  const apply = (aggregates: FeedAggregate[], sign: 1 | -1) => {
    for (const aggregate of aggregates) {
      const id = itemKeyId(aggregate.key);
      const change = changes.get(id) ?? { key: aggregate.key, deltas: new CounterDeltas() };
      changes.set(id, change);
      for (const [name, amount] of Object.entries(aggregate.deltas)) change.deltas.add(name, sign * amount);
    }
  };
  if (before) apply(storedFeedAggregates(before), -1);
  if (after) apply(feedAggregates(after), 1);
  return [...changes.values()].filter((change) => !change.deltas.isEmpty);
}
