import { getQuizResult as contract } from '../../../shared/contracts/quizzes.ts';
import { getQuizResult } from '../../../shared/domain/quizzes/get-quiz-result.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params, query }, ctx) =>
  getQuizResult(ctx.caller, params.course_id, params.lesson_id, query),
);
