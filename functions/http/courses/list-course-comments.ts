import { listCourseComments as contract } from '../../../shared/contracts/courses.ts';
import { listCourseComments } from '../../../shared/domain/courses/list-course-comments.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  comments: toPaginatorB(await listCourseComments(ctx.caller, params.course_id, query), ctx.location),
}));
