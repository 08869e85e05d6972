import { listQuizResults as contract } from '../../../shared/contracts/quiz-results.ts';
import { listQuizResults } from '../../../shared/domain/quizzes/list-quiz-results.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { withPaginationBlockA } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) =>
  withPaginationBlockA('quiz_results', await listQuizResults(ctx.caller, params.course_id, query)),
);
