/**
 * A migration worker that dies mid-chunk: it processes the message given as argv[2] and SIGKILLs itself right
 * after the first transaction that wrote feeds has committed (so some rows are written, the chunk's marker and
 * counts are not). The environment is the test stack's, with the test's private queue.
 */
import { db } from '../../shared/db/client.ts';
import { processMigrationMessage } from '../../shared/domain/migrations/process-migration-message.ts';

db().middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (
      /TransactWrite/.test(context.commandName ?? '') &&
      /"entity":(\{"S":)?"post"/.test(JSON.stringify(args.input))
    )
      process.kill(process.pid, 'SIGKILL');
    return result;
  },
  { step: 'initialize', name: 'killAfterFeeds' },
);

await processMigrationMessage(JSON.parse(process.argv[2]!), 1);
process.stdout.write('finished without being killed\n');
