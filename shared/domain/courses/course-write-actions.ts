import { type QuizItem, storedLessonOrderRow, storedQuiz } from './course-item.ts';
import type { LessonStatus } from '../../vocabulary/courses.ts';

/**
 * The course items an imported lesson writes beside its post: its order row in the course partition and, when it
 * has one, its quiz. Other domains write them only through this; they never build the items themselves.
 */
export function importedLessonItems(
  lesson: {
    id: number;
    course_id: number;
    position: number;
    title: string;
    slug: string;
    status: LessonStatus;
  },
  quiz: QuizItem | undefined,
) {
  return [storedLessonOrderRow(lesson), ...(quiz ? [storedQuiz(quiz)] : [])];
}
