import { normalizeUsername, usernameProblem } from '../users/index.ts';
import { ImportError, itemName } from './import-error.ts';
import type { ImportFile } from './import-schema.ts';

/**
 * Where each name of the file points, checked before anything is read or written. A user reference resolves
 * first to a `ref` of the file's users, else to the login of an existing user (checked against the table later:
 * `externalLogins` remembers where each was first used, to name the item if it does not exist). Every other
 * reference resolves only within the file, to an item defined earlier where order matters (topic parents,
 * comment parents), which also rules out cycles.
 */
export interface ResolvedReferences {
  readonly userRefs: ReadonlyMap<string, number>;
  readonly externalLogins: ReadonlyMap<string, string>;
  readonly spaces: ReadonlyMap<string, number>;
  readonly topics: ReadonlyMap<string, number>;
  readonly courses: ReadonlyMap<string, { index: number; lessons: ReadonlyMap<string, number> }>;
  readonly feeds: ReadonlyMap<string, number>;
  readonly comments: ReadonlyMap<string, number>;
}

const fail = (where: string, message: string): never => {
  throw new ImportError(`${where}: ${message}`);
};

function indexRefs(section: string, items: readonly { ref?: string | undefined }[]): Map<string, number> {
  const map = new Map<string, number>();
  items.forEach((item, index) => {
    if (item.ref === undefined) return;
    if (map.has(item.ref)) fail(itemName(section, index, item.ref), `duplicate ref "${item.ref}"`);
    map.set(item.ref, index);
  });
  return map;
}

function assertUnique(values: { value: string; where: string; what: string }[]): void {
  const seen = new Map<string, string>();
  for (const { value, where, what } of values) {
    const first = seen.get(value);
    if (first !== undefined) fail(where, `${what} "${value}" is also used by ${first}`);
    seen.set(value, where);
  }
}

export function resolveReferences(file: ImportFile): ResolvedReferences {
  const userRefs = indexRefs('users', file.users);
  const spaces = indexRefs('spaces', file.spaces);
  const topics = indexRefs('topics', file.topics);
  // Course refs are indexed again below with their lessons; this call only refuses duplicates early.
  indexRefs('courses', file.courses);
  const feeds = indexRefs('feeds', file.feeds);
  const comments = indexRefs('comments', file.comments);

  assertUnique(
    file.users.map((u, i) => ({ value: u.login, where: itemName('users', i, u.ref), what: 'login' })),
  );
  assertUnique(
    file.users.map((u, i) => ({ value: u.email, where: itemName('users', i, u.ref), what: 'e-mail' })),
  );
  // Spaces and courses share one slug namespace (courses are spaces).
  assertUnique([
    ...file.spaces.map((s, i) => ({ value: s.slug, where: itemName('spaces', i, s.ref), what: 'slug' })),
    ...file.courses.map((c, i) => ({ value: c.slug, where: itemName('courses', i, c.ref), what: 'slug' })),
  ]);
  assertUnique(
    file.topics.flatMap((t, i) =>
      t.slug ? [{ value: t.slug, where: itemName('topics', i, t.ref), what: 'slug' }] : [],
    ),
  );

  const externalLogins = new Map<string, string>();
  const user = (reference: string, where: string): void => {
    if (userRefs.has(reference)) return;
    const login = normalizeUsername(reference);
    if (usernameProblem(login) !== undefined) {
      fail(where, `unknown user "${reference}" (neither a ref of this file's users nor a login)`);
    }
    if (!externalLogins.has(login)) externalLogins.set(login, `${where}: unknown user "${reference}"`);
  };
  const within = (map: ReadonlyMap<string, number>, what: string, reference: string, where: string) => {
    if (!map.has(reference)) fail(where, `unknown ${what} ref "${reference}"`);
  };

  file.spaces.forEach((space, i) => {
    const where = itemName('spaces', i, space.ref);
    if (space.created_by !== undefined) user(space.created_by, `${where}: created_by`);
    const members = new Set<string>();
    space.members.forEach((member, m) => {
      user(member.user, `${where}: members[${m}].user`);
      if (members.has(member.user)) fail(`${where}: members[${m}]`, `"${member.user}" is listed twice`);
      members.add(member.user);
    });
  });

  file.topics.forEach((topic, i) => {
    if (topic.parent === null) return;
    const where = `${itemName('topics', i, topic.ref)}: parent`;
    const parentIndex = topics.get(topic.parent);
    if (parentIndex === undefined) fail(where, `unknown topic ref "${topic.parent}"`);
    if (parentIndex! >= i) fail(where, `parent "${topic.parent}" must be listed before the topic`);
  });

  const courses = new Map<string, { index: number; lessons: ReadonlyMap<string, number> }>();
  file.courses.forEach((course, i) => {
    const where = itemName('courses', i, course.ref);
    if (course.created_by !== undefined) user(course.created_by, `${where}: created_by`);
    const enrolled = new Set<string>();
    for (const [list, refs] of [
      ['admins', course.admins],
      ['students', course.students],
    ] as const) {
      refs.forEach((reference, m) => {
        user(reference, `${where}: ${list}[${m}]`);
        if (enrolled.has(reference)) fail(`${where}: ${list}[${m}]`, `"${reference}" is listed twice`);
        enrolled.add(reference);
      });
    }
    const lessons = indexRefs(`${where}: lessons`, course.lessons);
    assertUnique(
      course.lessons.map((l, j) => ({ value: l.slug, where: `${where}: lessons[${j}]`, what: 'slug' })),
    );
    courses.set(course.ref, { index: i, lessons });
  });

  file.feeds.forEach((feed, i) => {
    const where = itemName('feeds', i, feed.ref);
    user(feed.user, `${where}: user`);
    if (feed.space !== null) within(spaces, 'space', feed.space, `${where}: space`);
    const seen = new Set<string>();
    feed.topics.forEach((topic, t) => {
      within(topics, 'topic', topic, `${where}: topics[${t}]`);
      if (seen.has(topic)) fail(`${where}: topics[${t}]`, `topic "${topic}" is listed twice`);
      seen.add(topic);
    });
  });

  const commentTarget = (i: number): string => {
    const c = file.comments[i]!;
    return c.feed !== undefined ? `feed:${c.feed}` : `lesson:${c.course}/${c.lesson}`;
  };
  file.comments.forEach((comment, i) => {
    const where = itemName('comments', i, comment.ref);
    user(comment.user, `${where}: user`);
    if (comment.feed !== undefined) within(feeds, 'feed', comment.feed, `${where}: feed`);
    else {
      const course = courses.get(comment.course!);
      if (!course) fail(`${where}: course`, `unknown course ref "${comment.course}"`);
      if (!course!.lessons.has(comment.lesson!))
        fail(`${where}: lesson`, `unknown lesson ref "${comment.lesson}"`);
    }
    if (comment.parent !== null) {
      const parentIndex = comments.get(comment.parent);
      if (parentIndex === undefined) fail(`${where}: parent`, `unknown comment ref "${comment.parent}"`);
      if (parentIndex! >= i)
        fail(`${where}: parent`, `parent "${comment.parent}" must be listed before the reply`);
      if (commentTarget(parentIndex!) !== commentTarget(i))
        fail(`${where}: parent`, 'the parent is on another post');
    }
  });

  file.notifications.forEach((notification, i) => {
    const where = itemName('notifications', i);
    user(notification.user, `${where}: user`);
    if (notification.actor !== null) user(notification.actor, `${where}: actor`);
    const object = notification.object;
    if (typeof object !== 'string') return;
    const maps: Record<string, ReadonlyMap<string, unknown>> = {
      feed: feeds,
      comment: comments,
      space: spaces,
      course: courses,
      topic: topics,
      user: userRefs,
    };
    const map = maps[notification.object_type];
    if (!map) fail(`${where}: object`, `a ref needs object_type feed, comment, space, course, topic or user`);
    if (!map!.has(object)) fail(`${where}: object`, `unknown ${notification.object_type} ref "${object}"`);
  });

  return { userRefs, externalLogins, spaces, topics, courses, feeds, comments };
}
