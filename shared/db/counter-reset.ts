import type { ItemKey } from './partition.ts';
import { type TransactAction, updateAction } from './transact.ts';

/**
 * Setting an aggregate item's counters to absolute values recounted from the items they count (the operator's
 * `storage:upgrade`), never losing a request's concurrent `ADD`: the write is conditioned on every counter still
 * holding the value `seen` (read, strongly consistent, before the items were counted), so a change that landed in
 * between cancels the write instead of being overwritten; the caller reports it and a later run recounts.
 *
 * The counters reset are the ones recounted plus every other number the item holds (a counter whose items are all
 * gone is set to 0), except `identity` attributes (`space_id`, `topic_id`): a missing counter reads as 0, so an
 * absent item whose recount is all zeros needs no write.
 */
export function counterResetAction(
  key: ItemKey,
  recounted: Readonly<Record<string, number>>,
  seen: Readonly<Record<string, unknown>> | undefined,
  identity: Readonly<Record<string, unknown>> = {},
): TransactAction | undefined {
  const held = (name: string): number | undefined =>
    typeof seen?.[name] === 'number' ? (seen[name] as number) : undefined;
  const names = new Set(Object.keys(recounted));
  for (const [name, value] of Object.entries(seen ?? {}))
    if (typeof value === 'number' && !(name in identity)) names.add(name);
  const changed = [...names].filter((name) => (held(name) ?? 0) !== (recounted[name] ?? 0));
  if (changed.length === 0) return undefined;
  const attributeNames: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const conditions: string[] = [];
  changed.forEach((name, index) => {
    attributeNames[`#c${index}`] = name;
    values[`:c${index}`] = recounted[name] ?? 0;
    sets.push(`#c${index} = :c${index}`);
    const before = held(name);
    if (before === undefined) conditions.push(`attribute_not_exists(#c${index})`);
    else {
      values[`:o${index}`] = before;
      conditions.push(`#c${index} = :o${index}`);
    }
  });
  Object.entries(identity).forEach(([name, value], index) => {
    attributeNames[`#i${index}`] = name;
    values[`:i${index}`] = value;
    sets.push(`#i${index} = if_not_exists(#i${index}, :i${index})`);
  });
  return updateAction(key, {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: seen === undefined ? 'attribute_not_exists(pk)' : conditions.join(' AND '),
    ExpressionAttributeNames: attributeNames,
    ExpressionAttributeValues: values,
  });
}
