import { getMigrationConfig as contract } from '../../../shared/contracts/migrations.ts';
import { showMigrationConfig } from '../../../shared/domain/migrations/list-migrations.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => showMigrationConfig(ctx.caller));
