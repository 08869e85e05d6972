import { isAppError } from '../../shared/errors/app-error.ts';

/**
 * A failure the operator caused or can fix (taken login, invalid file, unknown key). The entry point prints its
 * message on standard error and exits 1; anything else is a bug and is printed with its stack.
 */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** Runs a use case, turning its domain errors (whose messages already name the problem) into operator errors. */
export async function withOperatorErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error)) throw new CliError(error.message);
    throw error;
  }
}
