import { courseQuizSlots, quizAttemptKey } from '../../db/keys/courses.ts';
import { sameItem } from '../../db/same-item.ts';
import { userMemberships } from '../../db/keys/spaces.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { batchGetRawItems, parseItem, queryAll } from '../../db/reads.ts';
import { conditionCheckAction, putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import { everyUserId } from '../users/index.ts';
import { type QuizSubmission, QuizSubmissionSchema, storedQuizListCopies } from './quiz-submission-item.ts';
import * as v from 'valibot';

export interface QuizListCopiesReport {
  /** Submissions read (attempt slots). */
  examined: number;
  /** List copies written (two per submission of an older stage). */
  items_written: number;
  changed_meanwhile: number;
}

const SpaceIdSchema = v.object({ space_id: v.pipe(v.number(), v.integer()) });
const RawSchema = v.record(v.string(), v.unknown());
const SLOTS_PER_PAGE = 50;
const MEMBERS_AT_ONCE = 16;

/**
 * The quizzes' part of the operator's `storage:upgrade`: every submission gets the two list copies that list it for
 * `status=all` (`storedQuizListCopies`), which a stage before them never wrote. The courses are found from every
 * member's active memberships (the users domain's `everyUserId`, then `userMemberships`: no Scan; a course none of
 * whose members is active any more is not visited), and each course's submissions from its attempt slots (the
 * course's by-time list, both results), a page at a time, with the page's copies read in one consistent
 * BatchGetItem. A submission whose copies are missing or differ is written by a transaction of its own, conditioned
 * on its slot still holding the revision read, so a concurrent grading (which writes the copies itself) is never
 * overwritten: it is reported as `changed_meanwhile`. A second run writes nothing.
 */
export async function upgradeQuizListCopies(options: { dryRun: boolean }): Promise<QuizListCopiesReport> {
  const report: QuizListCopiesReport = { examined: 0, items_written: 0, changed_meanwhile: 0 };
  const spaces = new Set<number>();
  for await (const userIds of everyUserId()) {
    // A few members at a time, each their own index partition.
    for (let start = 0; start < userIds.length; start += MEMBERS_AT_ONCE) {
      const found = await Promise.all(userIds.slice(start, start + MEMBERS_AT_ONCE).map(spacesOf));
      for (const ids of found) for (const id of ids) spaces.add(id);
    }
  }
  // Spaces that are not courses have no slots: their Query answers empty.
  for (const spaceId of spaces) await upgradeCourse(spaceId, report, options);
  return report;
}

async function spacesOf(userId: number): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of queryAll(userMemberships(userId), SpaceIdSchema))
    ids.push(...page.map((m) => m.space_id));
  return ids;
}

async function upgradeCourse(
  courseId: number,
  report: QuizListCopiesReport,
  options: { dryRun: boolean },
): Promise<void> {
  for await (const page of queryAll(courseQuizSlots(courseId), QuizSubmissionSchema, {
    pageSize: SLOTS_PER_PAGE,
  })) {
    const wanted = page.map((row) => ({ row, copies: storedQuizListCopies(row) }));
    const found = new Map(
      (
        await batchGetRawItems(
          wanted.flatMap(({ copies }) => copies),
          true,
        )
      ).map((item) => [itemKeyId(item), parseItem(RawSchema, item)]),
    );
    for (const { row, copies } of wanted) {
      report.examined++;
      const stale = copies.filter((copy) => !sameItem(found.get(itemKeyId(copy)), copy));
      if (stale.length === 0) continue;
      if (options.dryRun) {
        report.items_written += stale.length;
        continue;
      }
      if (await writeCopies(row, stale)) report.items_written += stale.length;
      else report.changed_meanwhile++;
    }
  }
}

/** The copies, on the condition that the slot still has the revision they were built from. */
async function writeCopies(
  row: QuizSubmission,
  copies: readonly (Record<string, unknown> & ItemKey)[],
): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    conditionCheckAction(quizAttemptKey(row.course_id, row.user_id, row.lesson_id, row.attempt_number), {
      ConditionExpression: 'revision = :seen',
      ExpressionAttributeValues: { ':seen': row.revision },
    }),
    ...copies.map((copy) => putAction(copy)),
  ]);
  return outcome.written;
}
