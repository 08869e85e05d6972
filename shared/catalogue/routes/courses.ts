import type { CatalogueRoute } from './route.ts';

/**
 * Course administration (contract "Course administration"), lesson progress and lesson comments. Lists read the
 * cursor key (paginator B's `next_page_url`); a new lesson comment notifies (`mail` queue).
 */
export const COURSE_ROUTES = [
  {
    operationId: 'getAdminCourse',
    method: 'GET',
    path: '/admin/courses/{course_id}',
    access: 'course_admin',
    grants: { table: 'read' },
  },
  {
    operationId: 'listCourseComments',
    method: 'GET',
    path: '/admin/courses/{course_id}/comments',
    access: 'course_admin',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'setLessonCompletion',
    method: 'PUT',
    path: '/courses/{course_id}/lessons/{lesson_id}/completion',
    access: 'enrolled_student',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'listLessonComments',
    method: 'GET',
    path: '/courses/{course_id}/lessons/{lesson_id}/comments',
    access: 'enrolled_student',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'createLessonComment',
    method: 'POST',
    path: '/courses/{course_id}/lessons/{lesson_id}/comments',
    access: 'enrolled_student',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
] as const satisfies readonly CatalogueRoute[];
