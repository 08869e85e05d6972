import { startMigration as contract } from '../../../shared/contracts/migrations.ts';
import { startMigration } from '../../../shared/domain/migrations/start-migration.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) =>
  startMigration(ctx.caller, 'buddypress', body),
);
