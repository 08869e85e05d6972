import { gmt, numberTree, random, shiftIds } from './rows.ts';
import { COLUMNS, phpSerialize } from './schema.ts';

/**
 * A seeded, realistic BuddyPress data set, and what the migration's mapping rules (decisions.md "Migrations")
 * must report for it. The expected counts are computed here independently of the migration code, from the rows
 * as generated, so a test comparing the two catches a mapping mistake on either side.
 */
export interface FixtureSize {
  readonly groups: number;
  readonly members: number;
  /** Top-level activity rows of every type; comment trees come on top. */
  readonly activities: number;
  readonly seed?: number;
  /** Added to every source id (see shiftIds). */
  readonly idBase?: number;
  /** One migrating update too large for a stored item (450 KB): its chunk fails on every delivery. */
  readonly poison?: boolean;
}

export interface ExpectedItem {
  total: number;
  migrated: number;
  failed: number;
}

export interface Fixture {
  readonly tables: Record<string, { columns: string[]; rows: unknown[][] }>;
  readonly expected: {
    groups: ExpectedItem;
    members: ExpectedItem;
    activities: ExpectedItem;
    comments: ExpectedItem;
  };
  /** Source ids of rows the migration must report in `errors` (author gone). */
  readonly unmappable: { activities: number[]; comments: number[] };
  readonly rowCounts: Record<string, number>;
  /** A migrated profile update (with a mention and entities) to look at through the API. */
  readonly sample: { activity: { id: number; date: string; content: string } };
  /** The source id of the poison update, when asked for. */
  readonly poisonId?: number;
}

const OTHER_TYPES = [
  ['groups', 'joined_group'],
  ['members', 'new_member'],
  ['members', 'last_activity'],
  ['blogs', 'new_blog_post'],
  ['friends', 'friendship_created'],
  ['groups', 'created_group'],
] as const;
const STATUSES = ['public', 'private', 'hidden'] as const;

export function generateFixture(size: FixtureSize): Fixture {
  const rnd = random(size.seed ?? 20261123);
  const base = size.idBase ?? 0;
  const pick = (n: number) => 1 + Math.floor(rnd() * n);
  const deletedUser = () => size.members + 1 + Math.floor(rnd() * 50);
  const users: unknown[][] = [];
  const usermeta: unknown[][] = [];
  for (let id = 1; id <= size.members; id++) {
    const registered = id % 97 === 0 ? '0000-00-00 00:00:00' : gmt(rnd);
    users.push([
      id,
      `bpuser${id + base}`,
      `$P$hash${id}`,
      `bpuser${id + base}`,
      `bpuser${id + base}@example.org`,
      '',
      registered,
      `Member ${id}`,
    ]);
    usermeta.push(
      [id, 'first_name', `First${id}`],
      [id, 'last_name', `Last${id}`],
      [id, 'description', `About member ${id} &amp; friends`],
      [id, 'wp_capabilities', phpSerialize({ subscriber: true })],
      [id, 'bp_xprofile_visibility_levels', phpSerialize({ '1': 'public', '2': 'loggedin' })],
    );
    if (id % 7 === 0) usermeta.push([id, 'bp_favorite_activities', phpSerialize([id * 3, id * 5])]);
  }

  const groups: unknown[][] = [];
  const groupmeta: unknown[][] = [];
  const groupStatus = new Map<number, string>();
  const members: unknown[][] = [];
  const invitations: unknown[][] = [];
  const pairs = new Set<string>();
  let memberRowId = 0;
  const addMember = (
    g: number,
    u: number,
    flags: { admin?: 1; mod?: 1; confirmed: 0 | 1; banned?: 1; invite?: 1; inviter?: number },
  ) => {
    memberRowId += 1;
    const title = flags.admin ? 'Group Admin' : flags.mod ? 'Group Mod' : '';
    members.push([
      memberRowId,
      g,
      u,
      flags.inviter ?? 0,
      flags.admin ?? 0,
      flags.mod ?? 0,
      title,
      gmt(rnd),
      '',
      flags.confirmed,
      flags.banned ?? 0,
      flags.invite ?? 0,
    ]);
    if (flags.confirmed && !flags.banned && g <= size.groups && u <= size.members) pairs.add(`${g}:${u}`);
  };
  const perGroup = Math.max(2, Math.round((2 * size.members) / Math.max(1, size.groups)));
  const duplicates: [number, number][] = [];
  for (let g = 1; g <= size.groups; g++) {
    const status = STATUSES[(g - 1) % 3]!;
    groupStatus.set(g, status);
    const creator = pick(size.members);
    groups.push([
      g,
      creator,
      `Group ${g} <em>&amp;</em>`,
      `group-${g}`,
      `Description of group ${g} 🎉`,
      status,
      0,
      1,
      gmt(rnd),
    ]);
    groupmeta.push(
      [g, 'last_activity', gmt(rnd)],
      [g, 'total_member_count', String(perGroup)],
      [g, 'invite_status', 'members'],
      [g, 'forum_id', phpSerialize([1000 + g])],
    );
    addMember(g, creator, { admin: 1, confirmed: 1 });
    const chosen = new Set([creator]);
    for (let k = 1; k < perGroup && chosen.size < size.members; k++) {
      let u = pick(size.members);
      while (chosen.has(u)) u = pick(size.members);
      chosen.add(u);
      const r = rnd();
      if (r < 0.04) addMember(g, u, { confirmed: 1, banned: 1 });
      else if (r < 0.07) addMember(g, u, { confirmed: 0 });
      else if (r < 0.09) {
        addMember(g, u, { confirmed: 0, invite: 1, inviter: creator });
        invitations.push([u, creator, 'bp_groups_invitation_manager', g, 'invite', gmt(rnd)]);
      } else if (r < 0.14) addMember(g, u, { mod: 1, confirmed: 1 });
      else {
        addMember(g, u, { confirmed: 1 });
        if (rnd() < 0.01) duplicates.push([g, u]);
      }
    }
  }
  for (const [g, u] of duplicates) addMember(g, u, { confirmed: 1 });
  // Orphans: rows for a deleted user and a deleted group, which never count.
  for (let k = 0; k < Math.max(2, size.groups / 20); k++) {
    addMember(pick(size.groups), deletedUser(), { confirmed: 1 });
    addMember(size.groups + 1 + k, pick(size.members), { confirmed: 1 });
  }

  const activity: unknown[][] = [];
  const activitymeta: unknown[][] = [];
  const expected = {
    groups: { total: size.groups, migrated: size.groups, failed: 0 },
    members: { total: pairs.size, migrated: pairs.size, failed: 0 },
    activities: { total: 0, migrated: 0, failed: 0 },
    comments: { total: 0, migrated: 0, failed: 0 },
  };
  const unmappable = { activities: [] as number[], comments: [] as number[] };
  let sample: Fixture['sample']['activity'] | undefined;
  let poisonId: number | undefined;
  let id = 0;
  for (let n = 0; n < size.activities; n++) {
    const rootId = ++id;
    const date = gmt(rnd);
    const authorGone = rnd() < 0.005;
    const author = authorGone ? deletedUser() : pick(size.members);
    let migrates = false;
    if (rnd() < 0.2) {
      const [component, type] = OTHER_TYPES[n % OTHER_TYPES.length]!;
      const item = component === 'groups' ? pick(size.groups) : 0;
      activity.push([rootId, author, component, type, `${type} happened`, '', '', item, 0, date, 0, 0, 0, 0]);
    } else {
      const spam = rnd() < 0.05 ? 1 : 0;
      const inGroup = rnd() < 0.4;
      const group = inGroup ? pick(size.groups) : 0;
      const hidden = inGroup ? (groupStatus.get(group) === 'public' ? 0 : 1) : rnd() < 0.04 ? 1 : 0;
      const content =
        n % 11 === 0
          ? `Hello <a class="bp-suggestions-mention" href="/members/bpuser2/">@bpuser2</a> &quot;quoted&quot; 😀`
          : `Update number ${n} from member ${author}`;
      // biome-ignore format: one source row per statement reads better than fourteen lines
      activity.push([rootId, author, inGroup ? 'groups' : 'activity', 'activity_update', 'posted an update', content,
        '', group, 0, date, hidden, 0, 0, spam]);
      if (n % 5 === 0) activitymeta.push([rootId, 'favorite_count', String(n % 9)]);
      if (
        size.poison &&
        poisonId === undefined &&
        !spam &&
        !hidden &&
        !inGroup &&
        !authorGone &&
        n % 11 !== 0
      ) {
        poisonId = rootId;
        activity.at(-1)![5] = 'x'.repeat(450_000);
      }
      if (!spam && (inGroup || !hidden)) {
        expected.activities.total += 1;
        if (authorGone) {
          expected.activities.failed += 1;
          unmappable.activities.push(rootId);
        } else {
          expected.activities.migrated += 1;
          migrates = true;
          if (!sample && n % 11 === 0 && !inGroup)
            sample = { id: rootId, date, content: 'Hello @bpuser2 "quoted" 😀' };
        }
      }
    }
    if (rnd() >= 0.35) continue;
    // A comment tree: each reply's parent is the root or an earlier comment, so depth varies and can be deep.
    const tree: { id: number; parent: number; spamPath: boolean; left: number; right: number }[] = [];
    const count = 1 + Math.floor(rnd() * 8);
    for (let c = 0; c < count; c++) {
      const commentId = ++id;
      const orphan = rnd() < 0.01;
      const parentIndex =
        tree.length > 0 && rnd() < 0.7 ? tree.length - 1 - Math.floor(rnd() * Math.min(3, tree.length)) : -1;
      const parentNode = parentIndex >= 0 ? tree[parentIndex]! : undefined;
      // An orphan's parent was deleted: BuddyPress keeps the reply, the migration attaches it to the root.
      const parent = orphan ? ++id : (parentNode?.id ?? rootId);
      const spam = rnd() < 0.04;
      const spamPath = spam || (!orphan && (parentNode?.spamPath ?? false));
      const gone = rnd() < 0.01;
      const commentAuthor = gone ? deletedUser() : pick(size.members);
      tree.push({ id: commentId, parent, spamPath, left: 0, right: 0 });
      // biome-ignore format: one source row per statement reads better than fourteen lines
      activity.push([commentId, commentAuthor, 'activity', 'activity_comment', 'posted a new activity comment',
        `Reply ${c} to ${rootId}`, '', rootId, parent, gmt(rnd), 0, 0, 0, spam ? 1 : 0]);
      if (!migrates || spamPath) continue;
      expected.comments.total += 1;
      if (gone) {
        expected.comments.failed += 1;
        unmappable.comments.push(commentId);
      } else expected.comments.migrated += 1;
    }
    numberTree(rootId, tree, activity);
  }
  const rows: Record<keyof typeof COLUMNS, unknown[][]> = {
    users,
    usermeta,
    bp_groups: groups,
    bp_groups_groupmeta: groupmeta,
    bp_groups_members: members,
    bp_invitations: invitations,
    bp_activity: activity,
    bp_activity_meta: activitymeta,
  };
  const tables = Object.fromEntries(
    Object.entries(COLUMNS).map(([name, columns]) => [
      name,
      { columns: [...columns], rows: rows[name as keyof typeof COLUMNS] },
    ]),
  );
  const rowCounts = Object.fromEntries(
    Object.entries(tables).map(([name, table]) => [name, table.rows.length]),
  );
  if (!sample) throw new Error('the fixture is too small to hold a sample update');
  if (base > 0) {
    shiftIds(tables, base);
    unmappable.activities = unmappable.activities.map((id) => id + base);
    unmappable.comments = unmappable.comments.map((id) => id + base);
    sample.id += base;
    if (poisonId !== undefined) poisonId += base;
  }
  return {
    tables,
    expected,
    unmappable,
    rowCounts,
    sample: { activity: sample },
    ...(poisonId ? { poisonId } : {}),
  };
}
