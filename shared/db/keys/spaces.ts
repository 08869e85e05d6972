import { type ItemKey, indexPartition, type Partition } from '../partition.ts';
import { type ShardedAggregate, shardedAggregate } from '../sharded-counters.ts';
import { pad } from './sort.ts';

/** Spaces and courses (courses are spaces of type `course`), their members and aggregates. */
export const spaceKey = (spaceId: number): ItemKey => ({ pk: `SPACE#${spaceId}`, sk: 'SPACE' });
export const spaceSlugGuardKey = (slug: string): ItemKey => ({ pk: `SPACESLUG#${slug}`, sk: 'SPACESLUG' });

export const membershipKey = (spaceId: number, userId: number): ItemKey => ({
  pk: `SPACE#${spaceId}`,
  sk: `MEMBER#${pad(userId)}`,
});
/** GSI1: the spaces a user actively belongs to, in joining order (sparse: active memberships only). */
export const userMemberships = (userId: number): Partition => indexPartition('GSI1', `USER#${userId}#SPACES`);
export const membershipJoinSort = (joinedAt: string, spaceId: number): string =>
  `${joinedAt}#${pad(spaceId)}`;
/** GSI2: the members of a space with one role (space admins and moderators for `space_join`). */
export const spaceMembersWithRole = (spaceId: number, role: string): Partition =>
  indexPartition('GSI2', `SPACE#${spaceId}#ROLE#${role}`);
export const memberSort = (userId: number): string => pad(userId);

/** Aggregates of a space (members_count; courses add their counters) maintained on write. */
export const spaceStatsKey = (spaceId: number): ItemKey => ({ pk: `SPACE#${spaceId}`, sk: 'STATS' });
/**
 * A space's `posts_count` (published feeds), moved by every feed published in it, so a busy space's feed traffic is
 * spread over 4 shards (`SPACE#<id>#S<n>` / `POSTCOUNT`, the feed's id choosing the shard) and summed on read.
 */
export const spacePostCounts = (spaceId: number): ShardedAggregate =>
  shardedAggregate({ pk: `SPACE#${spaceId}`, sk: 'POSTCOUNT' }, 4);
