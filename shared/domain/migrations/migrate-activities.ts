import { commentKey, postKey } from '../../db/keys/feeds.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { updateAction } from '../../db/transact.ts';
import type { ActivityRow } from '../../integrations/buddypress/source.ts';
import {
  type CommentItem,
  commentCounts,
  commentPoints,
  feedAggregates,
  type PostItem,
  storedComment,
  storedPost,
} from '../feeds/index.ts';
import { type SpacePrivacy, spaceVisibility } from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { slugify } from '../topics/index.ts';
import { type ChunkContext, type MapState, mapState, sourceHtmlToText } from './chunk-context.ts';
import { ensureUsers } from './ensure-users.ts';
import { reservedId } from './chunk-reservation.ts';
import { createdRunOf, findMaps, type MapItem, storedMap } from './map-repository.ts';

interface Target {
  readonly postId: number;
  readonly spaceId: number | null;
  readonly privacy: SpacePrivacy | null;
  /** Whether this chunk writes the feed (false: an earlier run's, skipped). */
  readonly written: boolean;
  /** Whether this run created the feed (its aggregates move with this chunk's recording). */
  readonly created: boolean;
}

/**
 * `activity_update` roots → feeds (a group's into its space), then their `activity_comment` trees → comments.
 * Left out, uncounted: spam comments and every comment under a spam one, and comments of roots that do not
 * migrate. A row whose author the source no longer has (or whose group was not migrated) is unmappable; a
 * comment whose parent is gone or unmappable hangs from its nearest migrated ancestor (the feed at worst).
 */
export async function migrateActivities(context: ChunkContext, rows: readonly ActivityRow[]): Promise<void> {
  const { run } = context;
  // Positions in the chunk name the reserved ids, so the order must not depend on the source's answer order.
  const roots = [...rows].sort((a, b) => a.id - b.id);
  const all = [...(await context.source.commentsOfRoots(roots.map((root) => root.id)))].sort(
    (a, b) => a.id - b.id,
  );
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  const position = new Map(all.map((comment, index) => [comment.id, index]));
  const comments = all.filter((comment) => !underSpam(comment, byId));
  const groupIds = roots.filter((root) => root.component === 'groups').map((root) => root.itemId);
  const [groups, users, rootMaps, commentMaps, reservation] = await Promise.all([
    findMaps(run.source, 'group', groupIds),
    ensureUsers(
      context,
      [...roots, ...comments].map((row) => row.userId),
    ),
    findMaps(
      run.source,
      'activity',
      roots.map((root) => root.id),
    ),
    findMaps(
      run.source,
      'comment',
      comments.map((comment) => comment.id),
    ),
    context.reserve('activities', { post: roots.length, comment: all.length }),
  ]);

  const targets = new Map<number, Target>();
  const written: { row: ActivityRow; target: Target; userId: number; state: MapState }[] = [];
  roots.forEach((root, index) => {
    const group = root.component === 'groups' ? groups.get(root.itemId) : undefined;
    if (root.component === 'groups' && !group) {
      context.fail('activities', root.id, `group ${root.itemId} was not migrated`);
      return;
    }
    const userId = users.get(root.userId);
    if (userId === undefined) {
      context.fail('activities', root.id, `author ${root.userId} not found`);
      return;
    }
    const map = rootMaps.get(root.id);
    const state = mapState(map, run.run_id);
    const target = {
      postId: map ? map.target_id : reservedId(reservation, 'post', index),
      spaceId: group?.target_id ?? null,
      privacy: (group?.privacy as SpacePrivacy | undefined) ?? null,
      written: !(state === 'earlier_run' && context.skipExisting),
      created: state !== 'earlier_run',
    };
    targets.set(root.id, target);
    if (!target.written) context.count('activities', 'skipped');
    else {
      context.count('activities', 'migrated');
      written.push({ row: root, target, userId, state });
    }
  });

  const commentTargets = new Map<number, number>();
  const commentsOf = new Map<number, number>();
  for (const comment of comments) {
    const target = targets.get(comment.itemId);
    if (!target) continue;
    const userId = users.get(comment.userId);
    if (userId === undefined) {
      context.fail('comments', comment.id, `author ${comment.userId} not found`);
      continue;
    }
    const map = commentMaps.get(comment.id);
    const state = mapState(map, run.run_id);
    const commentId = map ? map.target_id : reservedId(reservation, 'comment', position.get(comment.id)!);
    commentTargets.set(comment.id, commentId);
    if (state === 'earlier_run' && context.skipExisting) {
      context.count('comments', 'skipped');
      continue;
    }
    context.count('comments', 'migrated');
    const parent = nearestParent(comment, byId, commentTargets);
    writeComment(context, comment, { target, userId, state, commentId, parentId: parent, map });
    if (state === 'earlier_run') continue;
    // A comment this run creates counts on its feed: in the feed's own put when this chunk writes the feed as
    // created, else (a feed an earlier run created) as an aggregate move.
    if (target.created && target.written)
      commentsOf.set(target.postId, (commentsOf.get(target.postId) ?? 0) + 1);
    else context.writes.count(postKey(target.postId), { comments_count: 1 });
  }
  for (const entry of written)
    writePost(context, entry, commentsOf.get(entry.target.postId) ?? 0, rootMaps.get(entry.row.id));
}

/** True when the comment or one of its ancestors (as far as they still exist) is spam. */
function underSpam(comment: ActivityRow, byId: ReadonlyMap<number, ActivityRow>): boolean {
  for (let current: ActivityRow | undefined = comment, hops = 0; current && hops < 10_000; hops++) {
    if (current.isSpam) return true;
    current = current.secondaryItemId === current.itemId ? undefined : byId.get(current.secondaryItemId);
  }
  return false;
}

function nearestParent(
  comment: ActivityRow,
  byId: ReadonlyMap<number, ActivityRow>,
  targets: ReadonlyMap<number, number>,
): number | null {
  for (
    let parentId = comment.secondaryItemId, hops = 0;
    parentId !== comment.itemId && hops < 10_000;
    hops++
  ) {
    const target = targets.get(parentId);
    if (target !== undefined) return target;
    const parent = byId.get(parentId);
    if (!parent) return null;
    parentId = parent.secondaryItemId;
  }
  return null;
}

/** A feed's writes: created (put, aggregates), or an earlier run's brought up to date in place. */
function writePost(
  context: ChunkContext,
  entry: { row: ActivityRow; target: Target; userId: number; state: MapState },
  commentsCount: number,
  map: MapItem | undefined,
): void {
  const { row, target, userId, state } = entry;
  const { run, writes } = context;
  const message = sourceHtmlToText(row.content);
  writes.put(
    storedMap(run.source, {
      kind: 'activity',
      source_id: row.id,
      target_id: target.postId,
      run_id: run.run_id,
      created_run_id: map ? createdRunOf(map) : run.run_id,
    }),
  );
  if (state === 'earlier_run') {
    writes.update(contentUpdate(postKey(target.postId), message, context.now));
    return;
  }
  const createdAt = context.dateOf(row.dateRecorded);
  const post: PostItem = {
    id: target.postId,
    user_id: userId,
    space_id: target.spaceId,
    space_visibility: spaceVisibility(target.privacy),
    title: '',
    slug: slugify(message.slice(0, 60)) || `feed-${target.postId}`,
    message,
    message_rendered: renderMarkdown(message),
    type: 'text',
    status: 'published',
    topic_ids: [],
    comments_count: commentsCount,
    reactions_count: 0,
    media: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
  writes.put(storedPost(post));
  for (const aggregate of feedAggregates(post))
    writes.count(aggregate.key, aggregate.deltas, aggregate.identity);
}

/** A comment's writes: created (put, its author's aggregates), or an earlier run's brought up to date in place. */
function writeComment(
  context: ChunkContext,
  row: ActivityRow,
  at: {
    target: Target;
    userId: number;
    state: MapState;
    commentId: number;
    parentId: number | null;
    map: MapItem | undefined;
  },
): void {
  const { target, userId, state, commentId, parentId, map } = at;
  const { run, writes } = context;
  const message = sourceHtmlToText(row.content);
  writes.put(
    storedMap(run.source, {
      kind: 'comment',
      source_id: row.id,
      target_id: commentId,
      run_id: run.run_id,
      created_run_id: map ? createdRunOf(map) : run.run_id,
    }),
  );
  if (state === 'earlier_run') {
    writes.update(contentUpdate(commentKey(commentId), message, context.now));
    return;
  }
  const createdAt = context.dateOf(row.dateRecorded);
  const comment = {
    id: commentId,
    post_id: target.postId,
    parent_id: parentId,
    user_id: userId,
    space_id: target.spaceId,
    space_visibility: spaceVisibility(target.privacy),
    course_id: null,
    message,
    message_rendered: renderMarkdown(message),
    status: 'published',
    reactions_count: 0,
    created_at: createdAt,
    updated_at: createdAt,
  } satisfies CommentItem;
  writes.put(storedComment(comment));
  // The same aggregates and points a comment posted through the API moves (profiles and lists read them).
  writes.count(userStatsKey(userId), commentCounts(comment), { entity: 'user_stats', user_id: userId });
  const points = commentPoints(comment);
  if (points > 0) writes.count(userKey(userId), { total_points: points }, {});
}

/** skip_existing off: the content is brought up to date in place; counters and dates stay as migrated. */
const contentUpdate = (key: { pk: string; sk: string }, message: string, now: string) =>
  updateAction(key, {
    UpdateExpression: 'SET message = :message, message_rendered = :rendered, updated_at = :now',
    ExpressionAttributeValues: { ':message': message, ':rendered': renderMarkdown(message), ':now': now },
  });
