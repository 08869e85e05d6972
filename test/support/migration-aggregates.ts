import * as v from 'valibot';
import { commentKey, postKey } from '../../shared/db/keys/feeds.ts';
import { spacePostCounts, spaceStatsKey } from '../../shared/db/keys/spaces.ts';
import { readShardedTotals } from '../../shared/db/sharded-counters.ts';
import { batchGetItems } from '../../shared/db/reads.ts';
import { migratedRows } from '../../shared/domain/migrations/ledger.ts';
import { findMigratedActivities, findMigratedSpaces } from './migrated-targets.ts';
import type { Fixture } from './buddypress/generate.ts';

const column = (fixture: Fixture, table: string, name: string) => {
  const { columns, rows } = fixture.tables[table]!;
  const index = columns.indexOf(name);
  return rows.map((row) => Number(row[index]));
};
const tally = (values: readonly number[]) => {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

/**
 * What is not exact in the aggregates a run of this fixture moved (each must have moved once, whatever the
 * deliveries): every migrated feed's `comments_count` is the number of migrated comments under it; every migrated
 * space's `posts_count` and `members_count` are the feeds and memberships migrated into it. The fixture's ids must
 * be its own (ids shifted), so nothing else lands in its spaces. Answers one line per mismatch: none when exact.
 */
export async function aggregateMismatches(fixture: Fixture): Promise<string[]> {
  const mismatches: string[] = [];
  const differ = (what: string, got: unknown, want: unknown) => {
    if (got !== want) mismatches.push(`${what}: ${got}, expected ${want}`);
  };
  const activityIds = column(fixture, 'bp_activity', 'id');
  const [activities, groupMaps, memberRows] = await Promise.all([
    findMigratedActivities('buddypress', activityIds),
    findMigratedSpaces('buddypress', column(fixture, 'bp_groups', 'id')),
    migratedRows('buddypress', 'membership', column(fixture, 'bp_groups_members', 'id')).then(
      (found) => found.rows,
    ),
  ]);
  const { feeds: feedMaps, comments: commentMaps } = activities;
  const posts = await batchGetItems(
    [...feedMaps.values()].map((id) => postKey(id)),
    v.object({ id: v.number(), comments_count: v.number(), space_id: v.nullable(v.number()) }),
  );
  const comments = await batchGetItems(
    [...commentMaps.values()].map((id) => commentKey(id)),
    v.object({ post_id: v.number() }),
  );
  if (feedMaps.size === 0 || commentMaps.size === 0) mismatches.push('no migrated feeds or comments');
  differ('stored feeds', posts.length, feedMaps.size);
  differ('stored comments', comments.length, commentMaps.size);
  const commentsPerPost = tally(comments.map((comment) => comment.post_id));
  for (const post of posts)
    differ(`feed ${post.id} comments_count`, post.comments_count, commentsPerPost.get(post.id) ?? 0);

  const spaceIds = [...groupMaps.values()];
  const stats = await batchGetItems(
    spaceIds.map((id) => spaceStatsKey(id)),
    v.object({
      space_id: v.number(),
      members_count: v.optional(v.number(), 0),
    }),
  );
  // posts_count is a sharded aggregate of its own (spacePostCounts), summed over its shards.
  const postCounts = new Map(
    (
      await readShardedTotals(
        spaceIds.map((id) => spacePostCounts(id)),
        { consistent: true },
      )
    ).map((totals, index) => [spaceIds[index]!, totals.posts_count ?? 0]),
  );
  const postsPerSpace = tally(posts.flatMap((post) => (post.space_id === null ? [] : [post.space_id])));
  const groupOfRow = new Map(
    column(fixture, 'bp_groups_members', 'id').map((id, i) => [
      id,
      column(fixture, 'bp_groups_members', 'group_id')[i]!,
    ]),
  );
  const membersPerSpace = tally([...memberRows].map((rowId) => groupMaps.get(groupOfRow.get(rowId)!)!));
  differ('stored space stats', stats.length, spaceIds.length);
  for (const stat of stats) {
    differ(
      `space ${stat.space_id} posts_count`,
      postCounts.get(stat.space_id) ?? 0,
      postsPerSpace.get(stat.space_id) ?? 0,
    );
    differ(
      `space ${stat.space_id} members_count`,
      stat.members_count,
      membersPerSpace.get(stat.space_id) ?? 0,
    );
  }
  return mismatches;
}
