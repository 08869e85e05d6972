/** Helpers of the fixture generator: a seeded random source, GMT dates, nested-set numbering. */
/** mulberry32: small, seeded, good enough for fixtures. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** GMT wall clock, as BuddyPress writes it; one in ten lands within a minute of midnight. */
export function gmt(rnd: () => number): string {
  const date = new Date(Date.UTC(2015, 0, 1) + Math.floor(rnd() * 9 * 365 * 86_400_000));
  if (rnd() < 0.1) date.setUTCHours(rnd() < 0.5 ? 23 : 0, rnd() < 0.5 ? 59 : 0, Math.floor(rnd() * 60));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** Nested-set numbers as BuddyPress computes them: root left = 1, children in id order, depth first. */
export function numberTree(rootId: number, tree: { id: number; parent: number }[], rows: unknown[][]): void {
  const children = new Map<number, number[]>();
  for (const node of tree) {
    const parent = tree.some((other) => other.id === node.parent) ? node.parent : rootId;
    children.set(parent, [...(children.get(parent) ?? []), node.id]);
  }
  const numbers = new Map<number, [number, number]>();
  let counter = 0;
  const walk = (nodeId: number) => {
    const left = ++counter;
    for (const child of children.get(nodeId) ?? []) walk(child);
    numbers.set(nodeId, [left, ++counter]);
  };
  walk(rootId);
  for (const row of rows.slice(-(tree.length + 1))) {
    const found = numbers.get(row[0] as number);
    if (found) [row[11], row[12]] = found;
  }
}

/**
 * Columns holding ids, per table (0 means none and stays 0). Shifting every id by one base gives a second data set
 * whose source ids never meet the first's in the migration's id maps (tests that each need a first run).
 */
export const ID_COLUMNS: Record<string, number[]> = {
  users: [0],
  usermeta: [0],
  bp_groups: [0, 1],
  bp_groups_groupmeta: [0],
  bp_groups_members: [0, 1, 2, 3],
  bp_invitations: [0, 1, 3],
  bp_activity: [0, 1, 7, 8],
  bp_activity_meta: [0],
};

export function shiftIds(tables: Record<string, { rows: unknown[][] }>, base: number): void {
  for (const [name, table] of Object.entries(tables)) {
    for (const row of table.rows) {
      for (const column of ID_COLUMNS[name] ?? [])
        if (row[column] !== 0) row[column] = (row[column] as number) + base;
    }
  }
}
