import { randomUUID } from 'node:crypto';
import { db } from '../../shared/db/client.ts';

/** One DynamoDB command as this process's client sent it. */
export interface SentCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * The DynamoDB commands `run` sends from this process (use cases called in the test's own process, not through
 * the gateway), in order. The recording middleware is removed afterwards whatever `run` does.
 */
export async function commandsSentBy(run: () => Promise<unknown>): Promise<SentCommand[]> {
  const sent: SentCommand[] = [];
  const name = `sent-commands-${randomUUID()}`;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ name: context.commandName as string, input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    db().middlewareStack.remove(name);
  }
  return sent;
}

/** The names of the commands `run` sends, in order. */
export const commandNamesSentBy = async (run: () => Promise<unknown>): Promise<string[]> =>
  (await commandsSentBy(run)).map((command) => command.name);
