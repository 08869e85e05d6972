import { digestPeriod } from '../../../shared/domain/notifications/digest-period.ts';
import { publish } from '../../../shared/integrations/queue-publisher.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/**
 * `digest:run --frequency daily|weekly`: starts a digest run now, as the schedule would, for the current period.
 * Members already mailed for this period are not mailed again; the stack's worker does the sending.
 */
export async function digestRunCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['frequency']);
  const frequency = requiredOption(args, 'frequency');
  if (frequency !== 'daily' && frequency !== 'weekly')
    throw new CliError('--frequency must be daily or weekly.');
  const period = digestPeriod(frequency, new Date());
  await publish('digest', { kind: 'plan', frequency, period });
  return { frequency, period, queued: true };
}
