import type { ActivityRow } from '../../integrations/buddypress/source.ts';

/** Hops a walk up a comment tree takes at most (a cycle in broken source data ends the walk). */
const MAX_DEPTH = 10_000;

/** True when the comment or one of its ancestors (as far as they still exist) is spam. */
export function underSpam(comment: ActivityRow, byId: ReadonlyMap<number, ActivityRow>): boolean {
  for (let current: ActivityRow | undefined = comment, hops = 0; current && hops < MAX_DEPTH; hops++) {
    if (current.isSpam) return true;
    current = current.secondaryItemId === current.itemId ? undefined : byId.get(current.secondaryItemId);
  }
  return false;
}

/**
 * The target id of the nearest ancestor of a comment that has one (a comment migrated now or by an earlier run);
 * null when the comment hangs from the feed itself: its parent is the root, or every ancestor up to the root is
 * gone or unmappable.
 */
export function nearestParent(
  comment: ActivityRow,
  byId: ReadonlyMap<number, ActivityRow>,
  targets: ReadonlyMap<number, number>,
): number | null {
  for (
    let parentId = comment.secondaryItemId, hops = 0;
    parentId !== comment.itemId && hops < MAX_DEPTH;
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
