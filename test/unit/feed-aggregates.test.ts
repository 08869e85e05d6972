import { describe, expect, it } from 'vitest';
import { feedStats, feedStatusStats } from '../../shared/db/keys/feeds.ts';
import { spacePostCounts } from '../../shared/db/keys/spaces.ts';
import { entityShardKeys, shardKey, shardKeys, shardOf } from '../../shared/db/sharded-counters.ts';
import { feedAggregateChanges, feedAggregates } from '../../shared/domain/feeds/feed-aggregates.ts';
import {
  countersBySpace,
  MAX_FILTER_SPACES,
  parseTopicCounters,
  visibleIn,
  visibleListing,
  visibleMemberSpaces,
} from '../../shared/domain/feeds/feed-filters.ts';
import { storedPost, storedPostListing } from '../../shared/domain/feeds/post-item.ts';
import { samplePost } from '../support/post-item.ts';

/** What each feed contributes to the totals the feed lists read, and the filters that match those totals. */

const post = samplePost;

/** The timeline totals' shard that feed 9 moves (its id chooses it), in each replica. */
const TIMELINE = entityShardKeys(feedStats(), 9).map((key) => `${key.pk} ${key.sk}`);
const inTimeline = (deltas: Record<string, number>) =>
  Object.fromEntries(TIMELINE.map((key) => [key, deltas]));
/** Space 7's posts_count shard that feed 9 moves. */
const SPACE_POSTS = `${shardKey(spacePostCounts(7), shardOf(spacePostCounts(7), 9)).pk} POSTCOUNT`;

/** The site's unpublished-status totals' shard that feed 9 moves. */
const STATUS_TOTALS = `${shardKey(feedStatusStats(), shardOf(feedStatusStats(), 9)).pk} STATS`;

const flat = (aggregates: ReturnType<typeof feedAggregates>) =>
  Object.fromEntries(
    aggregates.map((aggregate) => [`${aggregate.key.pk} ${aggregate.key.sk}`, aggregate.deltas]),
  );

describe('feedAggregates', () => {
  it('counts a published public feed for its author (and their points), space, the timeline and each topic', () => {
    expect(flat(feedAggregates(post()))).toEqual({
      'USER#4 STATS': { feeds_published: 1, 'feeds_published_space:7': 1, feeds_published_public: 1 },
      'USER#4 USER': { total_points: 5 },
      [SPACE_POSTS]: { posts_count: 1 },
      ...inTimeline({ public: 1 }),
      'TOPIC#1 FEEDSTATS': { '1.3|p7': 1 },
      'TOPIC#3 FEEDSTATS': { '1.3|p7': 1 },
    });
  });

  it('counts a members-only feed by its space, a global feed under space 0', () => {
    expect(flat(feedAggregates(post({ space_visibility: 'members', topic_ids: [] })))).toEqual({
      'USER#4 STATS': { feeds_published: 1, 'feeds_published_space:7': 1, 'feeds_published_members:7': 1 },
      'USER#4 USER': { total_points: 5 },
      [SPACE_POSTS]: { posts_count: 1 },
      ...inTimeline({ 'members:7': 1 }),
    });
    expect(flat(feedAggregates(post({ space_id: null, topic_ids: [2] })))).toMatchObject({
      'USER#4 STATS': { 'feeds_published_space:0': 1 },
      'TOPIC#2 FEEDSTATS': { '2|p0': 1 },
    });
  });

  it('counts an unpublished feed only by status, for its author and on the site (issue 21 item 15); a lesson not at all', () => {
    expect(flat(feedAggregates(post({ status: 'draft' })))).toEqual({
      'USER#4 STATS': { 'feeds_status:draft': 1 },
      [STATUS_TOTALS]: { draft: 1 },
    });
    expect(feedAggregates(post({ type: 'course_lesson' }))).toEqual([]);
  });

  it('takes back exactly what the stored feed was counted under (its topic_signature)', () => {
    const stored = { ...post(), topic_ids: [1], topic_signature: '1.3' };
    const changes = feedAggregateChanges(stored, undefined);
    const topic3 = changes.find((change) => change.key.pk === 'TOPIC#3');
    expect(topic3?.deltas.entries()).toEqual([['1.3|p7', -1]]);
  });

  it('moves nothing for an edit that changes no count, and the difference otherwise', () => {
    const before = { ...post(), topic_signature: '1.3' };
    expect(feedAggregateChanges(before, { ...post(), title: 'new' })).toEqual([]);
    const unpublished = feedAggregateChanges(before, post({ status: 'draft' }));
    const user = unpublished.find((change) => change.key.pk === 'USER#4');
    expect(Object.fromEntries(user?.deltas.entries() ?? [])).toEqual({
      feeds_published: -1,
      'feeds_published_space:7': -1,
      feeds_published_public: -1,
      'feeds_status:draft': 1,
    });
  });

  it('stores the signature only while the feed is published', () => {
    expect(storedPost(post())).toMatchObject({ topic_signature: '1.3' });
    expect(storedPost(post({ status: 'draft' }))).not.toHaveProperty('topic_signature');
  });
});

describe('feed filters and totals', () => {
  it('names every member space in IN clauses of at most 100 operands', () => {
    const filter = visibleIn(Array.from({ length: 250 }, (_, index) => index + 1));
    expect(filter.expression.match(/ IN \(/g)).toHaveLength(3);
    expect(Object.keys(filter.values ?? {})).toHaveLength(251);
    expect(visibleIn([]).expression).toBe('#visibility = :public');
  });

  it('shows in memory what the filter keeps: feeds everyone may see, and those of the named spaces', () => {
    const visible = visibleListing([7, 9]);
    expect(visible({ space_id: 3, space_visibility: 'public' })).toBe(true);
    expect(visible({ space_id: null, space_visibility: 'public' })).toBe(true);
    expect(visible({ space_id: 9, space_visibility: 'members' })).toBe(true);
    expect(visible({ space_id: 8, space_visibility: 'members' })).toBe(false);
    expect(visibleListing([])({ space_id: 7, space_visibility: 'members' })).toBe(false);
  });

  it('keeps the fullest member spaces up to the bound, only those the caller belongs to', () => {
    const counted = new Map(
      Array.from({ length: MAX_FILTER_SPACES + 5 }, (_, index) => [index + 1, index + 1]),
    );
    const members = new Set([...counted.keys()]);
    const kept = visibleMemberSpaces(counted, members);
    expect(kept).toHaveLength(MAX_FILTER_SPACES);
    expect(kept[0]).toBe(MAX_FILTER_SPACES + 5);
    expect(
      visibleMemberSpaces(
        new Map([
          [1, 3],
          [2, 0],
          [3, 1],
        ]),
        new Set([2, 3]),
      ),
    ).toEqual([3]);
  });

  it('reads counters back by space and by topic set', () => {
    expect([...countersBySpace({ 'members:4': 2, 'members:9': 1, public: 5 }, 'members:')]).toEqual([
      [4, 2],
      [9, 1],
    ]);
    expect(parseTopicCounters({ '1.3|p7': 2, '3|m12': 1 })).toEqual([
      { visibleToAll: true, spaceId: 7, count: 2 },
      { visibleToAll: false, spaceId: 12, count: 1 },
    ]);
  });
});

describe('the timeline totals', () => {
  it('are spread over shards by feed id, and one feed always moves the same shard', () => {
    const shards = new Set(
      Array.from({ length: 64 }, (_, n) => feedAggregates(post({ id: 1000 + n })))
        .flat()
        .filter((aggregate) => aggregate.kind === 'timeline')
        .map((aggregate) => aggregate.key.pk),
    );
    expect(shards.size).toBe(feedStats().shards * feedStats().replicas);
    const changes = feedAggregateChanges(post({ id: 77 }), post({ id: 77, status: 'draft' }));
    const timeline = changes.filter((change) => change.key.pk.startsWith('FEEDS#'));
    expect(timeline.map((change) => change.key)).toEqual(
      Array.from({ length: feedStats().replicas }, (_, replica) =>
        shardKey(feedStats(), shardOf(feedStats(), 77), replica),
      ),
    );
  });

  it('are kept in replicas: a feed moves its shard in each, and each replica is a full set of shards', () => {
    expect(feedStats().replicas).toBeGreaterThan(1);
    const keys = entityShardKeys(feedStats(), 77);
    expect(new Set(keys.map((key) => key.pk)).size).toBe(feedStats().replicas);
    expect(keys[1]).toEqual({ pk: `FEEDS#R1#S${shardOf(feedStats(), 77)}`, sk: 'STATS' });
    const all = Array.from({ length: feedStats().replicas }, (_, replica) => shardKeys(feedStats(), replica));
    expect(new Set(all.flat().map((key) => key.pk)).size).toBe(feedStats().shards * feedStats().replicas);
  });

  it('keep index keys off the post item: its listing entry carries them', () => {
    const stored = storedPost(post());
    expect(Object.keys(stored).filter((name) => name.startsWith('gsi'))).toEqual([]);
    expect(storedPostListing(post())).toMatchObject({
      sk: 'LISTING',
      gsi1pk: 'USER#4#POSTS',
      gsi2pk: 'SPACE#7#POSTS',
      gsi3pk: expect.stringMatching(/^FEEDS#[0-3]$/),
    });
  });

  it('lists an unpublished feed on a shard of its status list instead of the timeline (issue 21 item 15)', () => {
    const draft = storedPostListing(post({ status: 'draft' }));
    expect(draft).toMatchObject({
      gsi1pk: 'USER#4#POSTS',
      gsi3pk: expect.stringMatching(/^FEEDS#DRAFT#[0-3]$/),
    });
    expect(draft).not.toHaveProperty('gsi2pk');
    const gsi3pk = (listing: Record<string, unknown>) => listing.gsi3pk;
    expect(gsi3pk(storedPostListing(post({ status: 'scheduled' })))).toMatch(/^FEEDS#SCHEDULED#[0-3]$/);
    const shards = new Set(
      Array.from({ length: 40 }, (_, id) => gsi3pk(storedPostListing(post({ id, status: 'pending' })))),
    );
    expect(shards.size).toBe(4);
    expect(storedPostListing(post({ status: 'draft', type: 'course_lesson' }))).not.toHaveProperty('gsi3pk');
  });
});
