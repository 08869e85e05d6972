import { setLessonCompletion as contract } from '../../../shared/contracts/courses.ts';
import { setLessonCompletion } from '../../../shared/domain/courses/set-lesson-completion.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  setLessonCompletion(ctx.caller, params.course_id, params.lesson_id, body),
);
