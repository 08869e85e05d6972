/**
 * Whether a stored item already is the wanted one, attribute by attribute (absent when undefined): what the
 * `storage:upgrade` steps compare before writing, so that a second run writes nothing.
 */
export function sameItem(
  stored: Readonly<Record<string, unknown>> | undefined,
  wanted: Readonly<Record<string, unknown>>,
): boolean {
  if (!stored) return false;
  const names = new Set([...Object.keys(stored), ...Object.keys(wanted)]);
  return [...names].every((name) => JSON.stringify(stored[name]) === JSON.stringify(wanted[name]));
}
