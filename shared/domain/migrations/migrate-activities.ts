import * as v from 'valibot';
import { commentKey, postKey, postListingKey } from '../../db/keys/feeds.ts';
import type { ItemKey } from '../../db/partition.ts';
import { batchGetItems } from '../../db/reads.ts';
import type { ActivityRow } from '../../integrations/buddypress/source.ts';
import { contentUpdate, type FeedPlace, writeNewComment, writeNewPost } from './activity-targets.ts';
import type { ChunkContext } from './chunk-context.ts';
import { nearestParent, underSpam } from './comment-trees.ts';
import { targetIds } from './id-spaces.ts';
import { migratedRows } from './ledger.ts';
import { DELETED, groupSpaces } from './space-resolver.ts';
import { resolveUsers } from './user-resolver.ts';

/** How a chunk stands to one root: a feed it creates, an earlier run's feed, or a root whose space is gone. */
type RootTarget =
  | { readonly kind: 'new'; readonly place: FeedPlace; readonly row: ActivityRow; readonly userId: number }
  | { readonly kind: 'earlier'; readonly place: FeedPlace; readonly row: ActivityRow }
  | { readonly kind: 'space_deleted' };

/**
 * `activity_update` roots → feeds (a group's into its space), then their `activity_comment` trees → comments.
 * Left out, uncounted: spam comments and every comment under a spam one, and comments of roots that do not
 * migrate. A row whose author the source no longer has (or whose group was not migrated) is unmappable; a
 * comment whose parent is gone or unmappable hangs from its nearest migrated ancestor (the feed at worst). Rows an
 * earlier run migrated are skipped or (skip_existing off) updated in place; new comments under an earlier run's
 * feed are added to it. Content in a space the platform deleted since is skipped.
 */
export async function migrateActivities(context: ChunkContext, rows: readonly ActivityRow[]): Promise<void> {
  const { run } = context;
  const roots = [...rows].sort((a, b) => a.id - b.id);
  const all = [...(await context.source.commentsOfRoots(roots.map((root) => root.id)))].sort(
    (a, b) => a.id - b.id,
  );
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  const comments = all.filter((comment) => !underSpam(comment, byId));
  const [spaces, users, earlier, postIds, commentIds] = await Promise.all([
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
  const { rows: earlierRoots, comments: earlierComments } = earlier;

  const targets = new Map<number, RootTarget>();
  for (const root of roots) {
    const space = root.component === 'groups' ? spaces.get(root.itemId) : undefined;
    const userId = users.get(root.userId);
    if (root.component === 'groups' && !space)
      context.fail('activities', root.id, `group ${root.itemId} was not migrated`);
    else if (space === DELETED) {
      targets.set(root.id, { kind: 'space_deleted' });
      context.count('activities', 'skipped');
    } else if (userId === undefined) context.fail('activities', root.id, `author ${root.userId} not found`);
    else {
      const place = {
        postId: postIds.get(root.id)!,
        spaceId: space?.spaceId ?? null,
        privacy: space?.privacy ?? null,
      };
      targets.set(
        root.id,
        earlierRoots.has(root.id)
          ? { kind: 'earlier', place, row: root }
          : { kind: 'new', place, row: root, userId },
      );
    }
  }

  // What exists already: an earlier run's feeds and comments (updated in place, or gaining new comments), and on a
  // retry what the earlier delivery wrote (kept as it is).
  const gainingComments = new Set(
    comments.filter((comment) => !earlierComments.has(comment.id)).map((comment) => comment.itemId),
  );
  const present = await existingTargets([
    ...[...targets.values()].flatMap((target) =>
      (target.kind === 'earlier' && (!context.skipExisting || gainingComments.has(target.row.id))) ||
      (target.kind === 'new' && context.retry)
        ? // A retry also reads the listing entry: the two puts may have landed in different batches.
          [postKey(target.place.postId), postListingKey(target.place.postId)]
        : [],
    ),
    ...comments.flatMap((comment) =>
      (earlierComments.has(comment.id) && !context.skipExisting) ||
      (context.retry && !earlierComments.has(comment.id))
        ? [commentKey(commentIds.get(comment.id)!)]
        : [],
    ),
  ]);

  const commentTargets = new Map<number, number>();
  const commentsOf = new Map<number, number>();
  for (const comment of comments) {
    const target = targets.get(comment.itemId);
    if (!target) continue;
    if (target.kind === 'space_deleted') {
      context.count('comments', 'skipped');
      continue;
    }
    const userId = users.get(comment.userId);
    if (userId === undefined) {
      context.fail('comments', comment.id, `author ${comment.userId} not found`);
      continue;
    }
    const commentId = commentIds.get(comment.id)!;
    const key = commentKey(commentId);
    commentTargets.set(comment.id, commentId);
    if (earlierComments.has(comment.id)) {
      if (context.skipExisting || !present.has(keyId(key))) context.count('comments', 'skipped');
      else {
        context.writes.update(contentUpdate('comment', commentId, comment));
        context.count('comments', 'migrated');
      }
      continue;
    }
    // A new comment under an earlier run's feed the platform has deleted since: nothing to hang it from.
    if (target.kind === 'earlier' && !present.has(keyId(postKey(target.place.postId)))) {
      context.count('comments', 'skipped');
      continue;
    }
    const parentId = nearestParent(comment, byId, commentTargets);
    writeNewComment(
      context,
      comment,
      { place: target.place, commentId, parentId, userId },
      { put: !present.has(keyId(key)) },
    );
    context.createdComment(comment.itemId, comment.id);
    if (target.kind === 'new')
      commentsOf.set(target.place.postId, (commentsOf.get(target.place.postId) ?? 0) + 1);
    else context.writes.addCommentsTo(target.place.postId, 1);
  }

  for (const target of targets.values()) {
    if (target.kind === 'new') {
      const { place, row, userId } = target;
      const put = !present.has(keyId(postKey(place.postId)));
      const putListing = !present.has(keyId(postListingKey(place.postId)));
      writeNewPost(context, row, place, userId, commentsOf.get(place.postId) ?? 0, { put, putListing });
      context.created('activities', row.id);
    } else if (target.kind === 'earlier') {
      if (context.skipExisting || !present.has(keyId(postKey(target.place.postId))))
        context.count('activities', 'skipped');
      else {
        context.writes.update(contentUpdate('post', target.place.postId, target.row));
        context.count('activities', 'migrated');
      }
    }
  }
}

const keyId = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

async function existingTargets(keys: readonly ItemKey[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const found = await batchGetItems(keys, v.object({ pk: v.string(), sk: v.string() }), { consistent: true });
  return new Set(found.map(keyId));
}
