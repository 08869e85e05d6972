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
