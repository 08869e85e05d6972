/**
 * Translation of DynamoDB failures at the repository boundary: repositories ask these questions, never the
 * handlers, and turn the answers into domain errors.
 */
export const isConditionalCheckFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * For a cancelled TransactWriteItems, the indexes of the actions whose condition failed. Empty when the error
 * is something else (a conflict with another transaction is `TransactionConflict`, which is retryable).
 */
export function failedConditionIndexes(error: unknown): number[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  const reasons =
    (error as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
}

export const isTransactionConflict = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TransactionConflictException') return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const reasons =
    (error as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.some((reason) => reason.Code === 'TransactionConflict');
};
