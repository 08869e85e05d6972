import { randomUUID } from 'node:crypto';
import { db } from '../../shared/db/client.ts';

/** One DynamoDB command as this process's client sent it. */
export interface SentCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The call stack at the send (async frames included), when asked for: how the command was reached. */
  readonly stack?: string;
}

/**
 * The DynamoDB commands `run` sends from this process (use cases called in the test's own process, not through
 * the gateway), in order. The recording middleware is removed afterwards whatever `run` does.
 */
export async function commandsSentBy(
  run: () => Promise<unknown>,
  options: { readonly stacks?: boolean } = {},
): Promise<SentCommand[]> {
  const sent: SentCommand[] = [];
  const name = `sent-commands-${randomUUID()}`;
  const limit = Error.stackTraceLimit;
  if (options.stacks) Error.stackTraceLimit = Number.POSITIVE_INFINITY;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({
        name: context.commandName as string,
        input: args.input as Record<string, unknown>,
        ...(options.stacks ? { stack: new Error('sent').stack ?? '' } : {}),
      });
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    db().middlewareStack.remove(name);
    Error.stackTraceLimit = limit;
  }
  return sent;
}

/** Whether a command names the item `key` (as a key, an item or a transaction's action), in any of its parts. */
export function namesItem(command: SentCommand, key: { readonly pk: string; readonly sk: string }): boolean {
  const visit = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(visit);
    if (value === null || typeof value !== 'object') return false;
    const record = value as Record<string, unknown>;
    if (record.pk === key.pk && record.sk === key.sk) return true;
    return Object.values(record).some(visit);
  };
  return visit(command.input);
}

/** The names of the commands `run` sends, in order. */
export const commandNamesSentBy = async (run: () => Promise<unknown>): Promise<string[]> =>
  (await commandsSentBy(run)).map((command) => command.name);
