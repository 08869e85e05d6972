import * as v from 'valibot';
import { IdTaken } from '../../db/ids.ts';
import { courseCompletionStats, courseStatsKey } from '../../db/keys/courses.ts';
import { counterUpdate } from '../../db/counters.ts';
import { type KeyedRead, noRead, readTogether } from '../../db/read-together.ts';
import { parseItem } from '../../db/reads.ts';
import { shardKeys } from '../../db/sharded-counters.ts';
import {
  type TransactAction,
  type TransactOutcome,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import {
  type CommentItem,
  commentCreationActions,
  commentRead,
  type PostItem,
  pendingCommentActions,
  postRead,
} from '../feeds/index.ts';
import { type MembershipItem, membershipRead, type SpaceItem, spaceRead } from '../spaces/index.ts';
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
  const [course, membership, stats] = await readTogether([
    spaceRead(courseId, options),
    membershipRead(courseId, userId, options),
    courseStatsRead(courseId, options),
  ]);
  return { course, stats, membership };
}

/** A course's statistics as a read to send with others: its stats item and completion shards, summed. */
export function courseStatsRead(
  courseId: number,
  options: { consistent?: boolean } = {},
): KeyedRead<CourseStats> {
  const keys = [courseStatsKey(courseId), ...shardKeys(courseCompletionStats(courseId))];
  return {
    keys,
    ...(options.consistent ? { consistent: true } : {}),
    settle: (found) =>
      sumCourseStats(
        keys.map((key) => {
          const raw = found.get(key);
          return raw ? parseItem(CountersSchema, raw) : undefined;
        }),
      ),
  };
}

function sumCourseStats(items: readonly (Record<string, number> | undefined)[]): CourseStats {
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
  const [course, membership] = await readTogether([spaceRead(courseId), membershipRead(courseId, userId)]);
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
    spaceRead(courseId),
    membershipRead(courseId, userId),
    postRead(lessonId),
    userRead(userId),
    parentId === null ? noRead<CommentItem | undefined>(undefined) : commentRead(parentId),
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
  // Both forms: action 1 is the lesson and, for a reply, the parent's check comes last (feeds' comment actions:
  // put, lesson, author counters, parent).
  const actions: TransactAction[] =
    comment.status === 'published' ? commentCreationActions(comment) : pendingCommentActions(comment);
  const parentIndex = comment.parent_id === null ? -1 : actions.length - 1;
  actions.push(counterUpdate(courseStatsKey(courseId), { [`lesson_comments_${comment.status}`]: 1 }));
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(1)) return 'lesson_gone';
  if (outcome.failed.includes(parentIndex)) return 'parent_gone';
  if (outcome.failed.includes(0)) throw new IdTaken(comment.id);
  throw new Error(`Lesson comment ${comment.id} could not be written`);
}
