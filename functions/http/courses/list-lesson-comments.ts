import { listLessonComments as contract } from '../../../shared/contracts/courses.ts';
import { listLessonComments } from '../../../shared/domain/courses/list-lesson-comments.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  comments: toPaginatorB(
    await listLessonComments(ctx.caller, params.course_id, params.lesson_id, query),
    ctx.location,
  ),
}));
