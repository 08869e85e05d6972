import { gradeQuizResult as contract } from '../../../shared/contracts/quiz-results.ts';
import { gradeQuizResult } from '../../../shared/domain/quizzes/grade-quiz-result.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  gradeQuizResult(ctx.caller, params.course_id, params.quiz_id, body),
);
