import { createLessonComment as contract } from '../../../shared/contracts/courses.ts';
import { createLessonComment } from '../../../shared/domain/courses/create-lesson-comment.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  createLessonComment(ctx.caller, params.course_id, params.lesson_id, body),
);
