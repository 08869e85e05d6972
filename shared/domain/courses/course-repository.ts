import * as v from 'valibot';
import { counterUpdate } from '../../db/counters.ts';
import { IdTaken } from '../../db/ids.ts';
import { courseCompletionStats, courseStatsKey } from '../../db/keys/courses.ts';
import { commentKey, courseComments, postKey } from '../../db/keys/feeds.ts';
import { membershipKey, spaceKey } from '../../db/keys/spaces.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { itemRead, noRead, readTogether } from '../../db/read-together.ts';
import { shardKeys } from '../../db/sharded-counters.ts';
import { batchGetItems, getItems } from '../../db/reads.ts';
import {
  conditionCheckAction,
  putAction,
  type TransactAction,
  type TransactOutcome,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import {
  type CommentItem,
  CommentItemSchema,
  commentCreationActions,
  type PostItem,
  PostItemSchema,
  storedComment,
  writeCommentActions,
} from '../feeds/index.ts';
import {
  type MembershipItem,
  MembershipItemSchema,
  type SpaceItem,
  SpaceItemSchema,
} from '../spaces/index.ts';
import { type CourseStats, EMPTY_COURSE_STATS } from './course-defaults.ts';
import { type UserItem, userRead } from '../users/index.ts';
import type { LessonCompletionPlan } from './lesson-completion.ts';

/**
 * Courses' storage, one method per access pattern (ACCESS_PATTERNS.md, "Quizzes" and "Course administration"); the
 * reads other domains use are in course-lookups.ts.
 */

/** Numeric attributes of a stats item or shard (anything else on it is ignored). */
const CountersSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw) =>
    Object.fromEntries(Object.entries(raw).filter(([, value]) => typeof value === 'number')),
  ),
) as v.GenericSchema<Record<string, unknown>, Record<string, number>>;

/**
 * The course, its stats and the caller's membership in one BatchGetItem (the administration reads decide on these):
 * the stats are the course's stats item plus the shards of its completion counters (`courseCompletionStats`),
 * summed; zeros where nothing was counted.
 */
export async function findCourseWithStats(
  courseId: number,
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<{ course: SpaceItem | undefined; stats: CourseStats; membership: MembershipItem | undefined }> {
  const [course, membership, ...found] = await getItems<
    [SpaceItem, MembershipItem, ...Record<string, number>[]]
  >(
    [
      { key: spaceKey(courseId), schema: SpaceItemSchema },
      { key: membershipKey(courseId, userId), schema: MembershipItemSchema },
      ...courseStatsReads(courseId),
    ] as never,
    options,
  );
  return { course, stats: sumCourseStats(found), membership };
}

export const courseStatsReads = (courseId: number) =>
  [courseStatsKey(courseId), ...shardKeys(courseCompletionStats(courseId))].map((key) => ({
    key,
    schema: CountersSchema,
  }));

export function sumCourseStats(items: readonly (Record<string, number> | undefined)[]): CourseStats {
  const stats: Record<string, number> = { ...EMPTY_COURSE_STATS };
  for (const item of items) {
    for (const name of Object.keys(EMPTY_COURSE_STATS))
      stats[name] = (stats[name] ?? 0) + (item?.[name] ?? 0);
  }
  return stats as unknown as CourseStats;
}

/** The course and the caller's membership in one BatchGetItem (the lesson routes decide on these two). */
export async function findCourseAndMembership(
  courseId: number,
  userId: number,
): Promise<{ course: SpaceItem | undefined; membership: MembershipItem | undefined }> {
  const [course, membership] = await getItems<[SpaceItem, MembershipItem]>([
    { key: spaceKey(courseId), schema: SpaceItemSchema },
    { key: membershipKey(courseId, userId), schema: MembershipItemSchema },
  ]);
  return { course, membership };
}

/**
 * What a lesson comment decides on, in one BatchGetItem: the course, the caller's membership and user item, the
 * lesson and (for a reply) the parent comment.
 */
export async function findLessonCommentContext(
  courseId: number,
  lessonId: number,
  userId: number,
  parentId: number | null,
): Promise<{
  course: SpaceItem | undefined;
  membership: MembershipItem | undefined;
  lesson: PostItem | undefined;
  author: UserItem | undefined;
  parent: CommentItem | undefined;
}> {
  const [course, membership, lesson, author, parent] = await readTogether([
    itemRead(spaceKey(courseId), SpaceItemSchema),
    itemRead(membershipKey(courseId, userId), MembershipItemSchema),
    itemRead(postKey(lessonId), PostItemSchema),
    userRead(userId),
    parentId === null
      ? noRead<CommentItem | undefined>(undefined)
      : itemRead(commentKey(parentId), CommentItemSchema),
  ]);
  return { course, membership, lesson, author, parent };
}

/**
 * Records a completion change: the student's set (conditioned on the set the plan was made from, last) and the
 * course counters, in one transaction. `written: false` means a concurrent change: re-read and re-plan.
 */
export function writeLessonProgress(plan: LessonCompletionPlan): Promise<TransactOutcome> {
  return transactWriteIfConditionsHold([...plan.statsUpdates, plan.progressUpdate]);
}

/**
 * One page of the comments on a course's lessons, newest first (GSI3 `courseComments`); without `withPending`
 * a filter keeps the published ones only (pending comments are few, so it skips little).
 */
export function queryCourseCommentPage(query: {
  courseId: number;
  page: number;
  perPage: number;
  cursor?: string | undefined;
  total: number;
  withPending: boolean;
}): Promise<PageResult<CommentItem>> {
  return queryPage({
    partition: courseComments(query.courseId),
    schema: CommentItemSchema,
    ascending: false,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
    total: query.total,
    ...(query.withPending
      ? {}
      : {
          filter: {
            expression: '#status = :published',
            names: { '#status': 'status' },
            values: { ':published': 'published' },
          },
        }),
  });
}

/** Lessons (posts) by id, in one BatchGetItem per 100. */
export async function findLessonPosts(lessonIds: readonly number[]): Promise<Map<number, PostItem>> {
  if (lessonIds.length === 0) return new Map();
  const posts = await batchGetItems([...new Set(lessonIds)].map(postKey), PostItemSchema);
  return new Map(posts.map((post) => [post.id, post]));
}

/**
 * Stores a lesson comment with its counts in one transaction, on the condition that the lesson still exists (and,
 * for a reply, its parent): a published one through the feeds domain's comment actions (the lesson's
 * `comments_count`, the author's counters), a pending one counted on the course only; both move the course's
 * `lesson_comments_<status>`. Answers what stopped it, if anything; a taken id (the comment's own guard, action 0,
 * with the lesson and parent there) throws `IdTaken`.
 */
export async function insertLessonComment(
  comment: CommentItem,
  courseId: number,
): Promise<'written' | 'lesson_gone' | 'parent_gone'> {
  const exists = { ConditionExpression: 'attribute_exists(pk)' };
  // Both forms: action 1 is the lesson and, for a reply, the parent's check comes last (feeds' comment actions:
  // put, lesson, author counters, parent).
  const actions: TransactAction[] =
    comment.status === 'published'
      ? commentCreationActions(comment)
      : [
          putAction(storedComment(comment), { ifAbsent: true }),
          conditionCheckAction(postKey(comment.post_id), exists),
          ...(comment.parent_id === null
            ? []
            : [conditionCheckAction(commentKey(comment.parent_id), exists)]),
        ];
  const parentIndex = comment.parent_id === null ? -1 : actions.length - 1;
  actions.push(counterUpdate(courseStatsKey(courseId), { [`lesson_comments_${comment.status}`]: 1 }));
  const outcome = await writeCommentActions(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(1)) return 'lesson_gone';
  if (outcome.failed.includes(parentIndex)) return 'parent_gone';
  if (outcome.failed.includes(0)) throw new IdTaken(comment.id);
  throw new Error(`Lesson comment ${comment.id} could not be written`);
}
