import type { QuizResultFilter } from '../../vocabulary/courses.ts';
import type { QuizStats } from './quiz-submission-item.ts';

/** The contract's `statistics` of the administrators' list, over the filtered set. */
export interface QuizStatistics {
  total_submissions: number;
  passed: number;
  failed: number;
  average_score: number;
  average_time: number;
}

const average = (sum: number, count: number): number =>
  count === 0 ? 0 : Math.round((sum / count) * 100) / 100;

/**
 * Statistics of one filter scope's stats restricted to a result filter: the counters are kept per result, so
 * `status=passed|failed` is exact from the same counters. Averages are rounded to two decimals.
 */
export function statisticsFor(stats: QuizStats, status: QuizResultFilter): QuizStatistics {
  const passed = status === 'failed' ? 0 : stats.passed;
  const failed = status === 'passed' ? 0 : stats.failed;
  const sumScore =
    (status === 'failed' ? 0 : stats.sum_score_passed) + (status === 'passed' ? 0 : stats.sum_score_failed);
  const sumTime =
    (status === 'failed' ? 0 : stats.sum_time_passed) + (status === 'passed' ? 0 : stats.sum_time_failed);
  const total = passed + failed;
  return {
    total_submissions: total,
    passed,
    failed,
    average_score: average(sumScore, total),
    average_time: average(sumTime, total),
  };
}
