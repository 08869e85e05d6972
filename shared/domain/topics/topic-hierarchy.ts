/**
 * The topic hierarchy rule (decisions.md: "`parent_id` must name an existing topic and may not make a cycle"): a
 * topic may not become its own ancestor. Pure apart from the injected lookup, so the rule is unit-tested with an
 * in-memory tree and run against the table by the use case.
 */

/** Longest ancestor chain walked (and so the deepest hierarchy a parent change may build on). */
export const MAX_TOPIC_ANCESTORS = 50;

export type ParentCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'unknown_parent' | 'cycle' | 'too_deep' };

/**
 * A topic's parent as stored: a topic id, `null` at the top level, `undefined` when no topic has this id.
 */
export type ParentLookup = (topicId: number) => Promise<number | null | undefined>;

/**
 * May topic `topicId` get `newParentId` as its parent? Walks up from the new parent: the move makes a cycle
 * exactly when the topic itself is met on the way (the new parent is the topic or one of its descendants). A
 * chain longer than `MAX_TOPIC_ANCESTORS` is refused rather than walked without bound.
 */
export async function checkNewParent(
  topicId: number,
  newParentId: number,
  parentOf: ParentLookup,
): Promise<ParentCheck> {
  if (newParentId === topicId) return { ok: false, reason: 'cycle' };
  let current = newParentId;
  for (let depth = 0; depth < MAX_TOPIC_ANCESTORS; depth++) {
    const parent = await parentOf(current);
    // Only the first lookup can miss on a consistent tree: every stored parent id names an existing topic.
    if (parent === undefined) return depth === 0 ? { ok: false, reason: 'unknown_parent' } : { ok: true };
    if (parent === null) return { ok: true };
    if (parent === topicId) return { ok: false, reason: 'cycle' };
    current = parent;
  }
  return { ok: false, reason: 'too_deep' };
}
