import { submitQuiz as contract } from '../../../shared/contracts/quizzes.ts';
import { submitQuiz } from '../../../shared/domain/quizzes/submit-quiz.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  submitQuiz(ctx.caller, params.course_id, params.lesson_id, body),
);
