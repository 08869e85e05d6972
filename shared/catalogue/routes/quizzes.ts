import type { CatalogueRoute } from './route.ts';

/** Quizzes (PRO). Submitting and grading may complete a lesson, which notifies the student (`mail` queue). */
export const QUIZ_ROUTES = [
  {
    operationId: 'submitQuiz',
    method: 'POST',
    path: '/courses/{course_id}/lessons/{lesson_id}/quiz/submit',
    access: 'enrolled_student',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
  {
    operationId: 'getQuizResult',
    method: 'GET',
    path: '/courses/{course_id}/lessons/{lesson_id}/quiz/result',
    access: 'authenticated',
    grants: { table: 'read' },
  },
  {
    operationId: 'listQuizResults',
    method: 'GET',
    path: '/admin/courses/{course_id}/quiz-results',
    access: 'course_admin',
    // Its pages carry paging links sealed with the cursor key (found by the bundled mode: the grant was missing).
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'gradeQuizResult',
    method: 'POST',
    path: '/admin/courses/{course_id}/quiz-results/{quiz_id}',
    access: 'course_admin',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
] as const satisfies readonly CatalogueRoute[];
