import { commentKey, postKey, postListingKey } from '../../db/keys/feeds.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { presentKeys } from '../../db/reads.ts';
import type { ActivityRow } from '../../integrations/buddypress/source.ts';
import { contentUpdate, type FeedPlace, newCommentEntries, newPostEntries } from './activity-targets.ts';
import type { ChunkInput } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';
import { nearestParent, underSpam } from './comment-trees.ts';
import { type TargetIds, targetIds } from './id-spaces.ts';
import { migratedRows } from './ledger.ts';
import { DELETED, groupSpaces } from './space-resolver.ts';
import { resolveUsers } from './user-resolver.ts';

/** How a chunk stands to one root: a feed it creates, an earlier run's feed, or a root whose space is gone. */
type RootTarget =
  | { readonly kind: 'new'; readonly place: FeedPlace; readonly row: ActivityRow; readonly userId: number }
  | { readonly kind: 'earlier'; readonly place: FeedPlace; readonly row: ActivityRow }
  | { readonly kind: 'space_deleted' };

/** The chunk's roots and the non-spam comments under them, in id order (a parent before its replies). */
interface Trees {
  readonly roots: readonly ActivityRow[];
  readonly comments: readonly ActivityRow[];
  /** Every comment under the roots, spam included: a comment's ancestors, as the source has them. */
  readonly byId: ReadonlyMap<number, ActivityRow>;
}

/** What the platform and earlier runs say about the chunk's rows, read side by side. */
interface Known {
  readonly users: ReadonlyMap<number, number>;
  readonly earlierRoots: ReadonlySet<number>;
  readonly earlierComments: ReadonlySet<number>;
  readonly commentIds: TargetIds;
  /** Root id → its target; absent: the root cannot be migrated (its failure is among `entries`). */
  readonly targets: ReadonlyMap<number, RootTarget>;
  /** The resolvers' warnings and the roots' failures and skips. */
  readonly entries: readonly ChunkEntry[];
}

/**
 * `activity_update` roots → feeds (a group's into its space), then their `activity_comment` trees → comments.
 * Left out, uncounted: spam comments and every comment under a spam one, and comments of roots that do not
 * migrate. A row whose author the source no longer has (or whose group was not migrated) is unmappable; a
 * comment whose parent is gone or unmappable hangs from its nearest migrated ancestor (the feed at worst). Rows an
 * earlier run migrated are skipped or (skip_existing off) updated in place; new comments under an earlier run's
 * feed are added to it. Content in a space the platform deleted since is skipped.
 */
export async function migrateActivities(
  context: ChunkInput,
  rows: readonly ActivityRow[],
): Promise<ChunkEntry[]> {
  const trees = await readTrees(context, rows);
  const known = await readKnown(context, trees);
  const present = await presentKeys(keysToRead(context, trees, known));
  const comments = commentEntries(context, trees, known, present);
  return [...known.entries, ...comments.entries, ...rootEntries(context, known, present, comments.newUnder)];
}

async function readTrees(context: ChunkInput, rows: readonly ActivityRow[]): Promise<Trees> {
  const roots = [...rows].sort((a, b) => a.id - b.id);
  const all = [...(await context.source.commentsOfRoots(roots.map((root) => root.id)))].sort(
    (a, b) => a.id - b.id,
  );
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  return { roots, comments: all.filter((comment) => !underSpam(comment, byId)), byId };
}

async function readKnown(context: ChunkInput, { roots, comments }: Trees): Promise<Known> {
  const { run } = context;
  const [spaces, resolved, earlier, postIds, commentIds] = await Promise.all([
    groupSpaces(
      context,
      roots.filter((root) => root.component === 'groups').map((root) => root.itemId),
    ),
    resolveUsers(
      context,
      [...roots, ...comments].map((row) => row.userId),
    ),
    migratedRows(
      run.source,
      'activity',
      roots.map((root) => root.id),
      { exceptRun: run.run_id },
    ),
    targetIds(
      run.source,
      'post',
      roots.map((root) => root.id),
      run.run_id,
    ),
    targetIds(
      run.source,
      'comment',
      comments.map((comment) => comment.id),
      run.run_id,
    ),
  ]);
  const targets = new Map<number, RootTarget>();
  const entries: ChunkEntry[] = [...resolved.warnings];
  for (const root of roots) {
    const space = root.component === 'groups' ? spaces.get(root.itemId) : undefined;
    const userId = resolved.users.get(root.userId);
    if (root.component === 'groups' && !space)
      entries.push(entry.failed('activities', root.id, `group ${root.itemId} was not migrated`));
    else if (space === DELETED) {
      targets.set(root.id, { kind: 'space_deleted' });
      entries.push(entry.row('activities', 'skipped'));
    } else if (userId === undefined)
      entries.push(entry.failed('activities', root.id, `author ${root.userId} not found`));
    else {
      const place = {
        postId: postIds.of(root.id),
        spaceId: space?.spaceId ?? null,
        privacy: space?.privacy ?? null,
      };
      targets.set(
        root.id,
        earlier.rows.has(root.id)
          ? { kind: 'earlier', place, row: root }
          : { kind: 'new', place, row: root, userId },
      );
    }
  }
  return {
    users: resolved.users,
    earlierRoots: earlier.rows,
    earlierComments: earlier.comments,
    commentIds,
    targets,
    entries,
  };
}

/**
 * What may exist already, to read before writing: an earlier run's feeds and comments (updated in place, or
 * gaining new comments), and on a retry what the earlier delivery wrote (kept as it is).
 */
function keysToRead(context: ChunkInput, { comments }: Trees, known: Known): ItemKey[] {
  const gainingComments = new Set(
    comments.filter((comment) => !known.earlierComments.has(comment.id)).map((comment) => comment.itemId),
  );
  return [
    ...[...known.targets.values()].flatMap((target) =>
      (target.kind === 'earlier' && (!context.skipExisting || gainingComments.has(target.row.id))) ||
      (target.kind === 'new' && context.retry)
        ? // A retry also reads the listing entry: the two puts may have landed in different batches.
          [postKey(target.place.postId), postListingKey(target.place.postId)]
        : [],
    ),
    ...comments.flatMap((comment) =>
      (known.earlierComments.has(comment.id) && !context.skipExisting) ||
      (context.retry && !known.earlierComments.has(comment.id))
        ? [commentKey(known.commentIds.of(comment.id))]
        : [],
    ),
  ];
}

/**
 * The comments, in id order (a reply finds its parent's target among those before it). Answers their entries and,
 * per new feed, how many new comments it gets (its `comments_count` as it is put).
 */
function commentEntries(
  context: ChunkInput,
  { comments, byId }: Trees,
  known: Known,
  present: ReadonlySet<string>,
): { entries: ChunkEntry[]; newUnder: ReadonlyMap<number, number> } {
  const entries: ChunkEntry[] = [];
  const commentTargets = new Map<number, number>();
  const newUnder = new Map<number, number>();
  for (const comment of comments) {
    const target = known.targets.get(comment.itemId);
    if (!target) continue;
    if (target.kind === 'space_deleted') {
      entries.push(entry.row('comments', 'skipped'));
      continue;
    }
    const userId = known.users.get(comment.userId);
    if (userId === undefined) {
      entries.push(entry.failed('comments', comment.id, `author ${comment.userId} not found`));
      continue;
    }
    const commentId = known.commentIds.of(comment.id);
    const exists = present.has(itemKeyId(commentKey(commentId)));
    commentTargets.set(comment.id, commentId);
    if (known.earlierComments.has(comment.id)) {
      entries.push(
        ...(context.skipExisting || !exists
          ? [entry.row('comments', 'skipped')]
          : [entry.update(contentUpdate('comment', commentId, comment)), entry.row('comments', 'migrated')]),
      );
      continue;
    }
    // A new comment under an earlier run's feed the platform has deleted since: nothing to hang it from.
    if (target.kind === 'earlier' && !present.has(itemKeyId(postKey(target.place.postId)))) {
      entries.push(entry.row('comments', 'skipped'));
      continue;
    }
    const parentId = nearestParent(comment, byId, commentTargets);
    entries.push(
      ...newCommentEntries(
        context,
        comment,
        { place: target.place, commentId, parentId, userId },
        { put: !exists },
      ),
      entry.createdComment(comment.itemId, comment.id),
    );
    const { postId } = target.place;
    if (target.kind === 'new') newUnder.set(postId, (newUnder.get(postId) ?? 0) + 1);
    else entries.push(entry.feedComments(postId, 1));
  }
  return { entries, newUnder };
}

/** The roots that migrate: new feeds (put unless a retry finds them), earlier runs' feeds skipped or updated. */
function rootEntries(
  context: ChunkInput,
  known: Known,
  present: ReadonlySet<string>,
  newUnder: ReadonlyMap<number, number>,
): ChunkEntry[] {
  return [...known.targets.values()].flatMap((target): ChunkEntry[] => {
    if (target.kind === 'new') {
      const { place, row, userId } = target;
      const put = !present.has(itemKeyId(postKey(place.postId)));
      const putListing = !present.has(itemKeyId(postListingKey(place.postId)));
      return [
        ...newPostEntries(context, row, place, userId, newUnder.get(place.postId) ?? 0, { put, putListing }),
        entry.created('activities', row.id),
      ];
    }
    if (target.kind === 'earlier') {
      if (context.skipExisting || !present.has(itemKeyId(postKey(target.place.postId))))
        return [entry.row('activities', 'skipped')];
      return [
        entry.update(contentUpdate('post', target.place.postId, target.row)),
        entry.row('activities', 'migrated'),
      ];
    }
    return [];
  });
}
