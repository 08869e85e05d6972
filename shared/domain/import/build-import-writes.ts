import { spaceStatsKey } from '../../db/keys/spaces.ts';
import { topicStatsKey } from '../../db/keys/topics.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import { generateAppPassword, formatAppPassword, hashSecret } from '../auth/index.ts';
import {
  type CourseSettings,
  DEFAULT_COURSE_SETTINGS,
  EMPTY_COURSE_STATS,
  type QuizItem,
  storedLessonOrderRow,
  storedQuiz,
} from '../courses/index.ts';
import {
  type CommentItem,
  feedAggregates,
  type PostItem,
  storedComment,
  storedPost,
  storedPostTopicLink,
} from '../feeds/index.ts';
import { notificationCreationActions } from '../notifications/index.ts';
import {
  DEFAULT_SPACE_SETTINGS,
  type SpaceItem,
  type SpaceRole,
  spaceVisibility,
  storedMembership,
  storedSpace,
  storedSpaceSlugGuard,
} from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import {
  slugify,
  storedTopic,
  storedTopicSlugGuard,
  type TopicItem,
  topicStatsDeltas,
} from '../topics/index.ts';
import { buildUserItem, userCreationActions } from '../users/index.ts';
import { itemName } from './import-error.ts';
import type { ImportFile } from './import-schema.ts';
import { ImportWrites } from './import-writes.ts';
import type { ResolvedReferences } from './resolve-references.ts';

/** The first id of each section's block (one `nextId(name, count)` per sequence) and what the ids depend on. */
export interface ImportAllocation {
  readonly firstUserId: number;
  /** Spaces first, then courses: they share the `space` sequence. */
  readonly firstSpaceId: number;
  readonly firstTopicId: number;
  /** Lessons first (in course order), then feeds: they share the `post` sequence. */
  readonly firstPostId: number;
  readonly firstCommentId: number;
  readonly firstNotificationId: number;
  /** One more than the largest existing topic serial (decisions.md default). */
  readonly nextTopicSerial: number;
  readonly externalUserIds: ReadonlyMap<string, number>;
  readonly pepper: string;
  readonly now: string;
}

/** The command's output (spec/operator-cli.md "Output"). */
export interface ImportIdMap {
  users: Record<string, { id: number; username: string; app_password: string }>;
  spaces: Record<string, number>;
  topics: Record<string, number>;
  courses: Record<string, { id: number; lessons: Record<string, number> }>;
  feeds: Record<string, number>;
  comments: Record<string, number>;
  notifications: number[];
}

/**
 * Turns a validated, resolved file into the items to write and the id map to print. Pure (no I/O): every
 * id is given, so the same input builds the same items, and aggregates are computed from the file: new
 * entities carry final counts, existing shared aggregates (topic totals, an existing user's stats) get ADDs.
 */
export function buildImportWrites(
  file: ImportFile,
  refs: ResolvedReferences,
  ids: ImportAllocation,
): { writes: ImportWrites; output: ImportIdMap } {
  const writes = new ImportWrites();
  const output: ImportIdMap = {
    users: {},
    spaces: {},
    topics: {},
    courses: {},
    feeds: {},
    comments: {},
    notifications: [],
  };
  const newUserIds = new Set<number>();

  const userIdOf = (reference: string): number => {
    const index = refs.userRefs.get(reference);
    if (index !== undefined) return ids.firstUserId + index;
    return ids.externalUserIds.get(reference.trim().toLowerCase())!;
  };
  const userStats = (userId: number, deltas: Record<string, number>) =>
    writes.add(
      userStatsKey(userId),
      deltas,
      newUserIds.has(userId) ? { base: { entity: 'user_stats', user_id: userId } } : {},
    );

  // ---- users
  file.users.forEach((user, i) => {
    const id = ids.firstUserId + i;
    newUserIds.add(id);
    const password = user.password ?? generateAppPassword();
    const item = buildUserItem(
      id,
      {
        login: user.login,
        email: user.email,
        displayName: user.display_name,
        firstName: user.first_name,
        lastName: user.last_name,
        hostRole: user.role,
        communityRole: user.community_role,
        status: user.status,
        bio: user.bio,
        website: user.website,
        createdAt: user.created_at ?? ids.now,
      },
      user.login,
      user.email,
    );
    const stored = { ...item, short_description_rendered: renderMarkdown(item.short_description) };
    writes.adopt(
      userCreationActions(stored, hashSecret(password, ids.pepper)),
      `${itemName('users', i, user.ref)}: login "${user.login}" or e-mail "${user.email}"`,
    );
    output.users[user.ref] = { id, username: user.login, app_password: formatAppPassword(password) };
  });

  // ---- spaces (memberships and stats; posts_count is added by the feeds below)
  const spaceById = new Map<number, SpaceItem>();
  const spaceStatsDeltas = new Map<number, Record<string, number>>();
  const addSpaceStats = (spaceId: number, deltas: Record<string, number>) => {
    const current = spaceStatsDeltas.get(spaceId) ?? {};
    for (const [name, amount] of Object.entries(deltas)) current[name] = (current[name] ?? 0) + amount;
    spaceStatsDeltas.set(spaceId, current);
  };
  const addMembers = (
    spaceId: number,
    members: { user: string; role: SpaceRole }[],
    createdAt: string,
    label: string,
  ) => {
    for (const member of members) {
      writes.put(
        storedMembership({
          space_id: spaceId,
          user_id: userIdOf(member.user),
          role: member.role,
          status: 'active',
          created_at: createdAt,
        }),
        label,
      );
    }
    addSpaceStats(spaceId, { members_count: members.length });
  };
  const creatorOf = (createdBy: string | undefined, admins: string[]) => {
    const reference = createdBy ?? admins[0];
    return reference === undefined ? 0 : userIdOf(reference);
  };

  file.spaces.forEach((space, i) => {
    const id = ids.firstSpaceId + i;
    const label = itemName('spaces', i, space.ref);
    const createdAt = space.created_at ?? ids.now;
    const item: SpaceItem = {
      id,
      title: space.title,
      slug: space.slug,
      description: space.description,
      description_rendered: renderMarkdown(space.description),
      logo: space.logo,
      cover_photo: space.cover_photo,
      created_by: creatorOf(
        space.created_by,
        space.members.filter((m) => m.role === 'admin').map((m) => m.user),
      ),
      parent_id: null,
      privacy: space.privacy,
      serial: space.serial ?? i + 1,
      status: space.status,
      type: 'community',
      settings: { ...DEFAULT_SPACE_SETTINGS, ...space.settings },
      created_at: createdAt,
      updated_at: createdAt,
    };
    spaceById.set(id, item);
    writes.put(storedSpaceSlugGuard(space.slug, id), `${label}: slug "${space.slug}"`);
    writes.put(storedSpace(item), label);
    addSpaceStats(id, { members_count: 0, posts_count: 0 });
    addMembers(id, space.members, createdAt, label);
    output.spaces[space.ref] = id;
  });

  // ---- topics (posts_count is filled in by the feeds below)
  const topicItems: TopicItem[] = file.topics.map((topic, i) => {
    const id = ids.firstTopicId + i;
    const createdAt = topic.created_at ?? ids.now;
    output.topics[topic.ref] = id;
    return {
      id,
      title: topic.title,
      title_lc: topic.title.toLowerCase(),
      slug: topic.slug ?? (slugify(topic.title) || `topic-${id}`),
      description: topic.description,
      color: topic.color ?? '',
      icon: topic.icon,
      parent_id: topic.parent === null ? null : ids.firstTopicId + refs.topics.get(topic.parent)!,
      status: topic.status,
      serial: topic.serial ?? ids.nextTopicSerial + i,
      posts_count: 0,
      created_at: createdAt,
      updated_at: createdAt,
    };
  });

  // ---- courses and lessons
  const posts = new Map<number, PostItem>();
  let nextPostId = ids.firstPostId;
  const lessonIds = new Map<string, number>();
  file.courses.forEach((course, i) => {
    const id = ids.firstSpaceId + file.spaces.length + i;
    const label = itemName('courses', i, course.ref);
    const createdAt = course.created_at ?? ids.now;
    const settings: CourseSettings = {
      ...DEFAULT_COURSE_SETTINGS,
      ...(course.settings as Partial<CourseSettings>),
    };
    if (course.course_type) settings.course_type = course.course_type;
    if (course.sequential_lesson_order !== undefined)
      settings.sequential_lesson_order = course.sequential_lesson_order ? 'yes' : 'no';
    const createdBy = creatorOf(course.created_by, course.admins);
    const item: SpaceItem = {
      id,
      title: course.title,
      slug: course.slug,
      description: course.description,
      description_rendered: renderMarkdown(course.description),
      logo: course.logo,
      cover_photo: course.cover_photo,
      created_by: createdBy,
      parent_id: null,
      privacy: course.privacy,
      serial: course.serial ?? i + 1,
      status: course.status,
      type: 'course',
      settings: { ...settings },
      course_type: settings.course_type,
      lockscreen: [],
      category_ids: [],
      created_at: createdAt,
      updated_at: createdAt,
    };
    spaceById.set(id, item);
    writes.put(storedSpaceSlugGuard(course.slug, id), `${label}: slug "${course.slug}"`);
    writes.put(storedSpace(item), label);
    addSpaceStats(id, {
      members_count: 0,
      posts_count: 0,
      ...EMPTY_COURSE_STATS,
      students_count: course.students.length,
    });
    addMembers(
      id,
      [
        ...course.admins.map((user) => ({ user, role: 'admin' as const })),
        ...course.students.map((user) => ({ user, role: 'student' as const })),
      ],
      createdAt,
      label,
    );
    const lessonMap: Record<string, number> = {};
    course.lessons.forEach((lesson, position) => {
      const lessonId = nextPostId++;
      const lessonCreatedAt = lesson.created_at ?? createdAt;
      const post: PostItem = {
        id: lessonId,
        user_id: createdBy,
        space_id: id,
        space_visibility: spaceVisibility(course.privacy),
        title: lesson.title,
        slug: lesson.slug,
        message: lesson.message,
        message_rendered: renderMarkdown(lesson.message),
        type: 'course_lesson',
        status: lesson.status,
        topic_ids: [],
        comments_count: 0,
        reactions_count: 0,
        media: [],
        created_at: lessonCreatedAt,
        updated_at: lessonCreatedAt,
        course_id: id,
        position: position + 1,
      };
      posts.set(lessonId, post);
      writes.put(
        storedLessonOrderRow({
          id: lessonId,
          course_id: id,
          position: position + 1,
          title: lesson.title,
          slug: lesson.slug,
          status: lesson.status,
        }),
        `${label}: lessons[${position}]`,
      );
      if (lesson.status === 'published') addSpaceStats(id, { published_lessons_count: 1 });
      if (lesson.quiz) {
        const quiz: QuizItem = {
          lesson_id: lessonId,
          course_id: id,
          passing_score: lesson.quiz.passing_score,
          max_attempts: lesson.quiz.max_attempts,
          allow_retake: lesson.quiz.allow_retake,
          time_limit: lesson.quiz.time_limit,
          show_correct_answers: lesson.quiz.show_correct_answers,
          randomize_questions: lesson.quiz.randomize_questions,
          questions: lesson.quiz.questions.map((q) => ({
            id: q.id,
            slug: q.slug ?? q.id,
            type: q.type,
            question: q.question,
            options: q.options ?? [],
            points: q.points,
            required: q.required,
            explanation: q.explanation,
            accepted_answers: q.accepted_answers ?? [],
          })),
          created_at: lessonCreatedAt,
          updated_at: lessonCreatedAt,
        };
        writes.put(storedQuiz(quiz), `${label}: lessons[${position}].quiz`);
      }
      lessonMap[lesson.ref] = lessonId;
      lessonIds.set(`${course.ref}\u0000${lesson.ref}`, lessonId);
    });
    output.courses[course.ref] = { id, lessons: lessonMap };
  });

  // ---- feeds
  const feedIds = new Map<string, number>();
  file.feeds.forEach((feed, i) => {
    const id = nextPostId++;
    const createdAt = feed.created_at ?? ids.now;
    const spaceId = feed.space === null ? null : ids.firstSpaceId + refs.spaces.get(feed.space)!;
    const space = spaceId === null ? undefined : spaceById.get(spaceId);
    const topicIds = feed.topics.map((t) => ids.firstTopicId + refs.topics.get(t)!);
    const userId = userIdOf(feed.user);
    const post: PostItem = {
      id,
      user_id: userId,
      space_id: spaceId,
      space_visibility: spaceVisibility(space?.privacy ?? null),
      title: feed.title,
      slug: feed.slug ?? (slugify(feed.title || feed.message.slice(0, 80)) || `feed-${id}`),
      message: feed.message,
      message_rendered: renderMarkdown(feed.message),
      type: 'text',
      status: feed.status,
      topic_ids: topicIds,
      comments_count: 0,
      reactions_count: 0,
      media: [],
      created_at: createdAt,
      updated_at: createdAt,
    };
    posts.set(id, post);
    const label = itemName('feeds', i, feed.ref);
    for (const topicId of topicIds) writes.put(storedPostTopicLink(post, topicId), label);
    if (post.status === 'published') {
      for (const topicId of topicIds) topicItems[topicId - ids.firstTopicId]!.posts_count++;
    }
    // The feed's counters, exactly as the feed write path moves them (the file's spaces and topics are new).
    for (const aggregate of feedAggregates(post)) {
      if (aggregate.kind === 'user') userStats(userId, aggregate.deltas);
      else if (aggregate.kind === 'space') addSpaceStats(spaceId!, aggregate.deltas);
      else if (aggregate.kind === 'topic')
        writes.add(aggregate.key, aggregate.deltas, { base: aggregate.identity });
      else writes.add(aggregate.key, aggregate.deltas);
    }
    if (feed.ref !== undefined) {
      feedIds.set(feed.ref, id);
      output.feeds[feed.ref] = id;
    }
  });

  // ---- comments
  const commentIds = new Map<string, number>();
  file.comments.forEach((comment, i) => {
    const id = ids.firstCommentId + i;
    const postId =
      comment.feed !== undefined
        ? feedIds.get(comment.feed)!
        : lessonIds.get(`${comment.course}\u0000${comment.lesson}`)!;
    const post = posts.get(postId)!;
    const createdAt = comment.created_at ?? ids.now;
    const userId = userIdOf(comment.user);
    const courseId = post.type === 'course_lesson' ? post.course_id! : null;
    const item: CommentItem = {
      id,
      post_id: postId,
      parent_id: comment.parent === null ? null : commentIds.get(comment.parent)!,
      user_id: userId,
      space_id: post.space_id,
      space_visibility: post.space_visibility,
      course_id: courseId,
      message: comment.message,
      message_rendered: renderMarkdown(comment.message),
      status: comment.status,
      reactions_count: 0,
      created_at: createdAt,
      updated_at: createdAt,
    };
    writes.put(storedComment(item), itemName('comments', i, comment.ref));
    if (comment.status === 'published') {
      post.comments_count++;
      userStats(userId, { comments_published: 1, [`comments_published_space:${post.space_id ?? 0}`]: 1 });
    }
    if (courseId !== null) addSpaceStats(courseId, { [`lesson_comments_${comment.status}`]: 1 });
    if (comment.ref !== undefined) {
      commentIds.set(comment.ref, id);
      output.comments[comment.ref] = id;
    }
  });

  // Posts and topics are written once their counts are final.
  for (const post of posts.values()) writes.put(storedPost(post), `post ${post.id}`);
  topicItems.forEach((topic, i) => {
    const label = itemName('topics', i, file.topics[i]!.ref);
    writes.put(storedTopicSlugGuard(topic.slug, topic.id), `${label}: slug "${topic.slug}"`);
    writes.put(storedTopic(topic), label);
    writes.add(topicStatsKey(), topicStatsDeltas(topic));
  });
  for (const [spaceId, deltas] of spaceStatsDeltas) {
    writes.add(spaceStatsKey(spaceId), deltas, { base: { entity: 'space_stats', space_id: spaceId } });
  }

  // ---- notifications (stored as they are, no e-mail), through the notifications domain's own builder
  const objectIds: Record<string, (reference: string) => number | undefined> = {
    feed: (r) => feedIds.get(r),
    comment: (r) => commentIds.get(r),
    space: (r) => output.spaces[r],
    course: (r) => output.courses[r]?.id,
    topic: (r) => output.topics[r],
    user: (r) => output.users[r]?.id,
  };
  file.notifications.forEach((notification, i) => {
    const id = ids.firstNotificationId + i;
    const createdAt = notification.created_at ?? ids.now;
    const userId = userIdOf(notification.user);
    const object = notification.object;
    const items = notificationCreationActions({
      id,
      user_id: userId,
      type: notification.type,
      title: notification.title,
      message: notification.message,
      action_url: notification.action_url,
      is_read: notification.is_read,
      actor_id: notification.actor === null ? null : userIdOf(notification.actor),
      object_id:
        typeof object === 'string' ? (objectIds[notification.object_type]?.(object) ?? null) : object,
      object_type: notification.object_type,
      created_at: createdAt,
      read_at: notification.is_read ? (notification.read_at ?? createdAt) : null,
    });
    writes.adopt(items, itemName('notifications', i), { deleteOnUndo: newUserIds.has(userId) });
    output.notifications.push(id);
  });

  return { writes, output };
}
