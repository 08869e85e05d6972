import * as v from 'valibot';
import { courseProgressKey } from '../../db/keys/courses.ts';
import type { MembershipItem } from '../spaces/index.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * A student's progress item (`courseProgressKey`, in the student's own course partition): the lessons completed
 * (number set; absent when empty, as DynamoDB removes an emptied set) and their count.
 */
export const CourseProgressItemSchema = v.object({
  course_id: integer,
  user_id: integer,
  completed_lessons: v.optional(v.set(integer)),
});
export type CourseProgressItem = v.InferOutput<typeof CourseProgressItemSchema>;

/**
 * Where a student's progress lives, and so where their completions are counted:
 *
 * - `item` (every student since progress items exist): the progress item, counted on the student's shard of
 *   `courseCompletionStats`, so no completion writes the course's partition.
 * - `membership`: progress recorded before progress items existed (and by the import), on the membership's
 *   `completed_lessons`, counted on the course's own stats item. It stays there, so the student's earlier
 *   completions and their undoing meet on one item (the counters' floors hold) and no backfill is needed: such a
 *   student keeps the old layout until their set is emptied, after which their progress starts on the item.
 *
 * Invariant: a membership whose set is empty never gains one again (only a `membership` plan writes it, and only
 * from a non-empty set), so at most one of the two places ever holds a non-empty set and the choice made from a
 * read is the one the write's condition protects.
 */
export interface CourseProgress {
  readonly completed: ReadonlySet<number>;
  readonly home: 'item' | 'membership';
}

export function courseProgressOf(
  membership: Pick<MembershipItem, 'completed_lessons'> | undefined,
  item: CourseProgressItem | undefined,
): CourseProgress {
  const legacy = membership?.completed_lessons;
  if (legacy && legacy.size > 0) return { completed: legacy, home: 'membership' };
  return { completed: item?.completed_lessons ?? new Set<number>(), home: 'item' };
}

/** The key and schema of a student's progress item, for reads that batch it with others. */
export const courseProgressRead = (courseId: number, userId: number) => ({
  key: courseProgressKey(courseId, userId),
  schema: CourseProgressItemSchema,
});
