import { type QuizItem, storedLessonOrderRow, storedQuiz } from './course-item.ts';

/**
 * The course items an imported lesson writes beside its post: its order row in the course partition and, when it
 * has one, its quiz. Other domains write them only through this; they never build the items themselves.
 */
export function importedLessonItems(
  lesson: Parameters<typeof storedLessonOrderRow>[0],
  quiz: QuizItem | undefined,
) {
  return [storedLessonOrderRow(lesson), ...(quiz ? [storedQuiz(quiz)] : [])];
}
