import { listQuizResults as contract } from '../../../shared/contracts/quizzes.ts';
import { listQuizResults } from '../../../shared/domain/quizzes/list-quiz-results.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginationBlockA } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => {
  const page = await listQuizResults(ctx.caller, params.course_id, query);
  return { quiz_results: page.items, pagination: toPaginationBlockA(page), statistics: page.statistics };
});
