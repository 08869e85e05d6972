import { getMigrationStatus as contract } from '../../../shared/contracts/migrations.ts';
import { showMigrationStatus } from '../../../shared/domain/migrations/show-migration-status.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => showMigrationStatus(ctx.caller, 'buddypress'));
