import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import type { TransactAction } from '../../shared/db/transact.ts';
import {
  feedCreationActions,
  feedDeletionActions,
  feedUpdateActions,
} from '../../shared/domain/feeds/feed-writes.ts';
import type { PostItem } from '../../shared/domain/feeds/post-item.ts';
import { samplePost } from '../support/post-item.ts';

/**
 * What a feed write does on its topics, read from its transaction: a ConditionCheck that each topic whose link it
 * puts still exists (a topic delete racing the write cancels it), the topics' feed totals items (`FEEDSTATS`, their
 * `posts_count`) moved, and no other topic item: the former `posts_count` shards (`TOPIC#<id>#S<n>`) are not written.
 */

const post = samplePost;
/** The feed as stored (counted under its topic set). */
const stored = (overrides: Partial<PostItem> = {}) => post({ topic_signature: '1.3', ...overrides });
const later = '2026-01-02T00:00:00.000Z';

/** Each action as `<operation> <pk> <sk>`. */
const described = (actions: readonly TransactAction[]) =>
  actions.map((action) => {
    const [operation, body] = Object.entries(action)[0] as [string, { Key?: unknown; Item?: unknown }];
    const key = (body.Key ?? body.Item) as { pk: string; sk: string };
    return `${operation} ${key.pk} ${key.sk}`;
  });
/** The actions on a topic's partition (`TOPIC#<id>…`), not the feed's links (`POST#<id>` / `TOPIC#<id>`). */
const onTopics = (actions: readonly TransactAction[]) =>
  described(actions).filter((action) => /^\w+ TOPIC#/.test(action));

beforeAll(() => {
  process.env.TABLE_NAME ??= 'unit-test-table';
  resetEnvCache();
});

describe('the topic actions of the feed writes', () => {
  it('a new published feed checks each topic exists and moves its feed totals, nothing else of the topic', () => {
    const actions = feedCreationActions(post());
    expect(onTopics(actions)).toEqual([
      'ConditionCheck TOPIC#3 TOPIC',
      'ConditionCheck TOPIC#1 TOPIC',
      'Update TOPIC#1 FEEDSTATS',
      'Update TOPIC#3 FEEDSTATS',
    ]);
    // The post, its listing entry, 2 links, 2 checks, the author's stats and points, the space's shard, the
    // timeline shard in each of its 4 replicas, 2 topic feed totals.
    expect(actions).toHaveLength(15);
  });

  it('a new draft checks its topics too, and counts on none of them', () => {
    expect(onTopics(feedCreationActions(post({ status: 'draft' })))).toEqual([
      'ConditionCheck TOPIC#3 TOPIC',
      'ConditionCheck TOPIC#1 TOPIC',
    ]);
  });

  it('unpublishing re-lists the links of the topics that exist, each checked, and takes the counts back', () => {
    const actions = feedUpdateActions(stored(), post({ status: 'draft', updated_at: later }), new Set([1]));
    expect(onTopics(actions)).toEqual([
      'ConditionCheck TOPIC#1 TOPIC',
      'Update TOPIC#1 FEEDSTATS',
      'Update TOPIC#3 FEEDSTATS',
    ]);
  });

  it('a topic change checks only the topic added', () => {
    const actions = feedUpdateActions(
      stored(),
      post({ topic_ids: [3, 5], updated_at: later }),
      new Set([1, 3, 5]),
    );
    expect(onTopics(actions)).toEqual([
      'ConditionCheck TOPIC#5 TOPIC',
      'Update TOPIC#1 FEEDSTATS',
      'Update TOPIC#3 FEEDSTATS',
      'Update TOPIC#5 FEEDSTATS',
    ]);
  });

  it('a delete takes back its counts by its stored topic set, with no check: a deleted topic’s totals stay', () => {
    const actions = feedDeletionActions(stored(), new Set([1]));
    expect(onTopics(actions)).toEqual(['Update TOPIC#1 FEEDSTATS', 'Update TOPIC#3 FEEDSTATS']);
    // Each decrement keeps its floor: the counter never goes below zero.
    const totals = actions.find((action) => described([action])[0] === 'Update TOPIC#3 FEEDSTATS');
    expect(totals?.Update?.ConditionExpression).toMatch(/>= :f0/);
  });
});
