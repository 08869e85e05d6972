import type { QueueName } from './queues.ts';

/**
 * Recurring jobs: at each time, one message on a catalogued queue. In the cloud an EventBridge rule per entry puts
 * the message on the queue; the local stack runs a timer from the same list (and the operator CLI can put the
 * message now). Times are UTC.
 */
export interface ScheduleEntry {
  readonly name: string;
  readonly queue: QueueName;
  readonly every: 'day' | 'week';
  /** `HH:MM` UTC. */
  readonly at: string;
  /** For `week`: ISO weekday, 1 = Monday. */
  readonly weekday?: number;
  /** The message put on the queue (checked against the queue's contract by the publisher and worker). */
  readonly message: Readonly<Record<string, unknown>>;
}

export const SCHEDULES = [
  {
    name: 'daily-digest',
    queue: 'digest',
    every: 'day',
    at: '07:00',
    message: { kind: 'plan', frequency: 'daily' },
  },
  {
    name: 'weekly-digest',
    queue: 'digest',
    every: 'week',
    weekday: 1,
    at: '07:00',
    message: { kind: 'plan', frequency: 'weekly' },
  },
] as const satisfies readonly ScheduleEntry[];
