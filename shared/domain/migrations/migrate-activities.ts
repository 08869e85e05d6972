import { commentKey, postKey } from '../../db/keys/feeds.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import { nextId } from '../../db/sequence.ts';
import { putAction, updateAction } from '../../db/transact.ts';
import type { ActivityRow } from '../../integrations/buddypress/source.ts';
import { feedAggregates, type PostItem, storedComment, storedPost } from '../feeds/index.ts';
import { type SpacePrivacy, spaceVisibility } from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { slugify } from '../topics/index.ts';
import { type ChunkContext, type MapState, mapState, sourceHtmlToText } from './chunk-context.ts';
import { ensureUsers } from './ensure-users.ts';
import { findMaps, mapAction } from './map-repository.ts';
import { type UnitWrite, writeUnits } from './write-units.ts';

interface Target {
  readonly postId: number;
  readonly spaceId: number | null;
  readonly privacy: SpacePrivacy | null;
}

/**
 * `activity_update` roots → feeds (a group's into its space), then their `activity_comment` trees → comments.
 * Left out, uncounted: spam comments and every comment under a spam one, and comments of roots that do not
 * migrate. A row whose author the source no longer has (or whose group was not migrated) is unmappable; a
 * comment whose parent is gone or unmappable hangs from its nearest migrated ancestor (the feed at worst).
 */
export async function migrateActivities(context: ChunkContext, roots: readonly ActivityRow[]): Promise<void> {
  const { run } = context;
  const all = await context.source.commentsOfRoots(roots.map((root) => root.id));
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  const comments = all.filter((comment) => !underSpam(comment, byId));
  const groupIds = roots.filter((root) => root.component === 'groups').map((root) => root.itemId);
  const [groups, users, rootMaps, commentMaps] = await Promise.all([
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
  ]);

  const targets = new Map<number, Target>();
  const newRoots: { row: ActivityRow; target: Omit<Target, 'postId'>; userId: number; state: MapState }[] =
    [];
  for (const root of roots) {
    const group = root.component === 'groups' ? groups.get(root.itemId) : undefined;
    if (root.component === 'groups' && !group) {
      context.fail('activities', root.id, `group ${root.itemId} was not migrated`);
      continue;
    }
    const userId = users.get(root.userId);
    if (userId === undefined) {
      context.fail('activities', root.id, `author ${root.userId} not found`);
      continue;
    }
    const where = {
      spaceId: group?.target_id ?? null,
      privacy: (group?.privacy as SpacePrivacy | undefined) ?? null,
    };
    const map = rootMaps.get(root.id);
    const state = mapState(map, run.run_id);
    if (map) targets.set(root.id, { postId: map.target_id, ...where });
    if (state === 'earlier_run' && context.skipExisting) context.count('activities', 'skipped');
    else {
      context.count('activities', 'migrated');
      if (state !== 'this_run') newRoots.push({ row: root, target: where, userId, state });
    }
  }
  const firstPost = await allocate('post', newRoots.filter((entry) => entry.state === 'new').length);
  let nextPost = firstPost;
  const rootUnits = newRoots.map(({ row, target, userId, state }) => {
    const postId = state === 'new' ? nextPost++ : rootMaps.get(row.id)!.target_id;
    targets.set(row.id, { postId, ...target });
    return postUnit(context, row, { postId, ...target }, userId, state);
  });

  const commentTargets = new Map<number, number>();
  const pending: {
    row: ActivityRow;
    target: Target;
    userId: number;
    state: MapState;
    parent: number | null;
  }[] = [];
  const newComments = comments.filter(
    (comment) => targets.has(comment.itemId) && !commentMaps.has(comment.id),
  ).length;
  let nextComment = await allocate('comment', newComments);
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
    commentTargets.set(comment.id, map ? map.target_id : nextComment++);
    if (state === 'earlier_run' && context.skipExisting) {
      context.count('comments', 'skipped');
      continue;
    }
    context.count('comments', 'migrated');
    if (state !== 'this_run')
      pending.push({
        row: comment,
        target,
        userId,
        state,
        parent: nearestParent(comment, byId, commentTargets),
      });
  }
  const commentUnits = pending.map((entry) =>
    commentUnit(
      context,
      entry.row,
      entry.target,
      entry.userId,
      entry.state,
      commentTargets.get(entry.row.id)!,
      entry.parent,
    ),
  );
  // Feeds first: their comments move the feeds' `comments_count`.
  await writeUnits(rootUnits);
  await writeUnits(commentUnits);
}

const allocate = async (name: 'post' | 'comment', count: number) => (count > 0 ? nextId(name, count) : 0);

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

function postUnit(
  context: ChunkContext,
  row: ActivityRow,
  target: Target,
  userId: number,
  state: MapState,
): UnitWrite {
  const message = sourceHtmlToText(row.content);
  const map = { kind: 'activity', source_id: row.id, target_id: target.postId, run_id: context.run.run_id };
  if (state === 'earlier_run') {
    return {
      actions: [
        mapAction(context.run.source, map, 'update'),
        contentUpdate(postKey(target.postId), message, context.now),
      ],
      counters: [],
    };
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
    comments_count: 0,
    reactions_count: 0,
    media: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
  return {
    actions: [mapAction(context.run.source, map, 'new'), putAction(storedPost(post))],
    counters: feedAggregates(post).map((aggregate) => ({
      key: aggregate.key,
      deltas: aggregate.deltas,
      setOnCreate: aggregate.identity,
    })),
  };
}

function commentUnit(
  context: ChunkContext,
  row: ActivityRow,
  target: Target,
  userId: number,
  state: MapState,
  commentId: number,
  parentId: number | null,
): UnitWrite {
  const message = sourceHtmlToText(row.content);
  const map = { kind: 'comment', source_id: row.id, target_id: commentId, run_id: context.run.run_id };
  if (state === 'earlier_run') {
    return {
      actions: [
        mapAction(context.run.source, map, 'update'),
        contentUpdate(commentKey(commentId), message, context.now),
      ],
      counters: [],
    };
  }
  const createdAt = context.dateOf(row.dateRecorded);
  const comment = storedComment({
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
  });
  return {
    actions: [mapAction(context.run.source, map, 'new'), putAction(comment)],
    counters: [
      { key: postKey(target.postId), deltas: { comments_count: 1 } },
      {
        key: userStatsKey(userId),
        deltas: { comments_published: 1, [`comments_published_space:${target.spaceId ?? 0}`]: 1 },
        setOnCreate: { entity: 'user_stats', user_id: userId },
      },
    ],
  };
}

/** skip_existing off: the content is brought up to date in place; counters and dates stay as migrated. */
const contentUpdate = (key: { pk: string; sk: string }, message: string, now: string) =>
  updateAction(key, {
    UpdateExpression: 'SET message = :message, message_rendered = :rendered, updated_at = :now',
    ExpressionAttributeValues: { ':message': message, ':rendered': renderMarkdown(message), ':now': now },
  });
