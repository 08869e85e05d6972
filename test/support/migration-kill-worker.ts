/**
 * A migration worker that dies mid-chunk: it processes the message given as argv[2] and SIGKILLs itself right
 * after the first BatchWriteItem that wrote feeds has been answered (so some of the chunk's items are written,
 * others and the chunk's marker, counts and aggregates are not). The environment is the test stack's, with the test's private queue.
 */
import { db } from '../../shared/db/client.ts';
import { processMigrationMessage } from '../../shared/domain/migrations/process-migration-message.ts';

db().middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (
      /BatchWrite/.test(context.commandName ?? '') &&
      /"entity":(\{"S":)?"post"/.test(JSON.stringify(args.input))
    )
      process.kill(process.pid, 'SIGKILL');
    return result;
  },
  { step: 'initialize', name: 'killAfterFeeds' },
);

await processMigrationMessage(JSON.parse(process.argv[2]!), 1);
process.stdout.write('finished without being killed\n');
