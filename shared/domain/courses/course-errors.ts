import { AppError, forbidden, notFound } from '../../errors/app-error.ts';

/** The courses domain's refusals (decisions.md: unknown courses are 404 `not_found`). */
export const courseNotFound = () => notFound('not_found', 'Course not found.');

/** A lesson that is not a published lesson of the course in the path. */
export const lessonNotFound = () => notFound('not_found', 'Lesson not found.');

export const notCourseAdmin = () =>
  forbidden('Only the course’s admins and site administrators may administer this course.');

export const notCourseStudent = () =>
  forbidden('Only students enrolled in this course can record lesson progress.');

export const notCourseParticipant = () =>
  forbidden('Only students enrolled in this course and its admins may do this.');

export const commentsDisabled = () => forbidden('Comments are disabled for this course.');

/** `sequential_lesson_order`: a lesson opens only once every earlier published lesson is completed. */
export const lessonLocked = (requiredLessonId: number) =>
  new AppError('lesson_locked', 400, 'Complete the previous lessons of this course first.', {
    required_lesson_id: requiredLessonId,
  });

/** A lesson with a quiz is completed by passing its quiz, never by hand. */
export const quizRequired = () =>
  new AppError('quiz_required', 400, 'This lesson is completed by passing its quiz.');
