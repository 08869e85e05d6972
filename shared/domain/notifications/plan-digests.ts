import { publish, publishBatch } from '../../integrations/queue-publisher.ts';
import { type DigestCadence, digestPeriod } from './digest-period.ts';
import { querySubscribersAfter } from './notification-preferences-repository.ts';

/** Subscribers handed out per plan message; the walk goes on in a follow-up message. */
export const PLAN_PAGE = 100;

/**
 * A digest run's fan-out: one page of the frequency's subscribers (an index of members by digest frequency, never
 * every user) becomes one `member` message each, and a follow-up `plan` message continues after the last one.
 * The period is fixed when the run starts, so a run that crosses midnight still mails one period.
 */
export async function planDigests(message: {
  frequency: DigestCadence;
  period?: string | undefined;
  after?: number | undefined;
}): Promise<void> {
  const period = message.period ?? digestPeriod(message.frequency, new Date());
  const { userIds, more } = await querySubscribersAfter(message.frequency, message.after ?? 0, PLAN_PAGE);
  await publishBatch(
    'digest',
    userIds.map((userId) => ({
      kind: 'member' as const,
      frequency: message.frequency,
      period,
      user_id: userId,
    })),
  );
  const last = userIds.at(-1);
  if (more && last !== undefined)
    await publish('digest', { kind: 'plan', frequency: message.frequency, period, after: last });
}
