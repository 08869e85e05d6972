import { getAdminCourse as contract } from '../../../shared/contracts/courses.ts';
import { getAdminCourse } from '../../../shared/domain/courses/get-admin-course.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) =>
  getAdminCourse(ctx.caller, params.course_id),
);
