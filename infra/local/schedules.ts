import { SCHEDULES, type ScheduleEntry } from '../../shared/catalogue/index.ts';
import { publish } from '../../shared/integrations/queue-publisher.ts';
import type { QueueMessage } from '../../shared/messages/index.ts';

/** When an entry fires next after `now` (UTC). */
export function nextFireTime(entry: ScheduleEntry, now: Date): Date {
  const [hour, minute] = entry.at.split(':').map(Number) as [number, number];
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute));
  if (entry.every === 'week') {
    const weekday = now.getUTCDay() || 7;
    next.setUTCDate(next.getUTCDate() + (((entry.weekday ?? 1) - weekday + 7) % 7));
  }
  const step = entry.every === 'week' ? 7 : 1;
  while (next <= now) next.setUTCDate(next.getUTCDate() + step);
  return next;
}

/**
 * The local stand-in for the cloud's EventBridge rules: a timer per catalogued schedule that puts the entry's
 * message on its queue at its UTC time, for as long as `npm start` runs. Answers a function that stops them.
 */
export function startSchedules(schedules: readonly ScheduleEntry[] = SCHEDULES): () => void {
  const timers = new Set<NodeJS.Timeout>();
  const arm = (entry: ScheduleEntry) => {
    const delay = Math.min(nextFireTime(entry, new Date()).getTime() - Date.now(), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      timers.delete(timer);
      publish(entry.queue, entry.message as QueueMessage<typeof entry.queue>).catch((error: unknown) => {
        process.stderr.write(`schedule ${entry.name} could not enqueue its message: ${String(error)}\n`);
      });
      arm(entry);
    }, delay);
    timer.unref();
    timers.add(timer);
  };
  for (const entry of schedules) arm(entry);
  return () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
