import { quizAnswersKey, quizAttemptKey, quizSubmissionKey } from '../../db/keys/courses.ts';
import { itemRead, type KeyedRead, readTogether } from '../../db/read-together.ts';
import {
  type CourseProgress,
  courseProgressOf,
  courseProgressRead,
  type QuizItem,
  quizRead,
} from '../courses/index.ts';
import { type PostItem, postsByIdsRead } from '../feeds/index.ts';
import { type MembershipItem, membershipRead, type SpaceItem, spaceRead } from '../spaces/index.ts';
import { type UserItem, userRead, usersByIdsRead } from '../users/index.ts';
import {
  type QuizAnswers,
  QuizAnswersSchema,
  type QuizStats,
  type QuizStatsScope,
  type QuizSubmission,
  QuizSubmissionSchema,
  statsItemsOf,
} from './quiz-submission-item.ts';
import { sumQuizStats } from './quiz-submission-repository.ts';

/**
 * The independent items a submission decides on, in one BatchGetItem (ACCESS_PATTERNS.md, "Quizzes"): the course,
 * the caller's membership, progress and profile, and the lesson's quiz. Eventually consistent: the transaction's
 * conditions (slot, progress set) protect what the decision relies on, and a refused one re-reads consistently.
 */
export async function findSubmissionContext(
  courseId: number,
  userId: number,
  lessonId: number,
): Promise<{
  course: SpaceItem | undefined;
  membership: MembershipItem | undefined;
  progress: CourseProgress;
  quiz: QuizItem | undefined;
  student: UserItem | undefined;
}> {
  const progressRead = courseProgressRead(courseId, userId);
  const [course, membership, progressItem, quiz, student] = await readTogether([
    spaceRead(courseId),
    membershipRead(courseId, userId),
    itemRead(progressRead.key, progressRead.schema),
    quizRead(lessonId),
    userRead(userId),
  ]);
  return { course, membership, progress: courseProgressOf(membership, progressItem), quiz, student };
}

/**
 * What a grading decides on before it knows the submission's student: the course, the grader's membership and
 * profile, and the submission's id pointer, in one strongly consistent BatchGetItem.
 */
export async function findGradingContext(
  courseId: number,
  graderId: number,
  submissionId: number,
): Promise<{
  course: SpaceItem | undefined;
  membership: MembershipItem | undefined;
  grader: UserItem | undefined;
  pointer: QuizSubmission | undefined;
}> {
  const consistent = { consistent: true };
  const [course, membership, grader, pointer] = await readTogether([
    spaceRead(courseId, consistent),
    membershipRead(courseId, graderId, consistent),
    userRead(graderId, consistent),
    itemRead(quizSubmissionKey(submissionId), QuizSubmissionSchema, consistent),
  ]);
  return { course, membership, grader, pointer };
}

/**
 * The graded attempt as it is now (its slot: the revision the grading's condition names), its answers, the quiz,
 * and the student's membership and progress (a grading that makes the attempt pass completes the lesson), in one
 * strongly consistent BatchGetItem.
 */
export async function findGradingTarget(
  pointer: Pick<QuizSubmission, 'course_id' | 'user_id' | 'lesson_id' | 'attempt_number'>,
): Promise<{
  before: QuizSubmission | undefined;
  answers: QuizAnswers | undefined;
  quiz: QuizItem | undefined;
  membership: MembershipItem | undefined;
  progress: CourseProgress;
}> {
  const { course_id: courseId, user_id: userId, lesson_id: lessonId, attempt_number: attempt } = pointer;
  const consistent = { consistent: true };
  const progressRead = courseProgressRead(courseId, userId);
  const [before, answers, quiz, membership, progressItem] = await readTogether([
    itemRead(quizAttemptKey(courseId, userId, lessonId, attempt), QuizSubmissionSchema, consistent),
    itemRead(quizAnswersKey(courseId, userId, lessonId, attempt), QuizAnswersSchema, consistent),
    quizRead(lessonId, consistent),
    membershipRead(courseId, userId, consistent),
    itemRead(progressRead.key, progressRead.schema, consistent),
  ]);
  return { before, answers, quiz, membership, progress: courseProgressOf(membership, progressItem) };
}

/**
 * The course, the caller's membership and the statistics of one scope (its item and shards) in one strongly
 * consistent BatchGetItem: the administrators' list decides on the first two and totals from the third.
 */
export async function findResultsContext(
  courseId: number,
  callerId: number,
  scope: QuizStatsScope,
): Promise<{ course: SpaceItem | undefined; membership: MembershipItem | undefined; stats: QuizStats }> {
  const consistent = { consistent: true };
  const keys = statsItemsOf(scope);
  const statsRead: KeyedRead<QuizStats> = {
    keys,
    consistent: true,
    settle: (found) => sumQuizStats(keys.map((key) => found.get(key))),
  };
  const [course, membership, stats] = await readTogether([
    spaceRead(courseId, consistent),
    membershipRead(courseId, callerId, consistent),
    statsRead,
  ]);
  return { course, membership, stats };
}

/**
 * The users and lessons a page of results shows, in one BatchGetItem (one per 100 keys, in parallel: a page of
 * up to 100 rows by distinct students can take two).
 */
export async function findRowsUsersAndLessons(
  userIds: readonly number[],
  lessonIds: readonly number[],
): Promise<{ users: Map<number, UserItem>; lessons: Map<number, PostItem> }> {
  const usersRead = usersByIdsRead(userIds);
  const lessonsRead = postsByIdsRead(lessonIds);
  // One BatchGetItem when both fit in 100 keys; else one each, in parallel (a page's ids are at most 100 a kind).
  const [users, lessons] =
    usersRead.keys.length + lessonsRead.keys.length <= 100
      ? await readTogether([usersRead, lessonsRead])
      : await Promise.all([
          readTogether([usersRead]).then(([only]) => only),
          readTogether([lessonsRead]).then(([only]) => only),
        ]);
  return { users, lessons };
}
