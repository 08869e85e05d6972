import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ScheduleEntry } from '../../shared/catalogue/index.ts';

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

export interface ScheduleRulesProps {
  readonly schedules: readonly ScheduleEntry[];
  /** A catalogued queue by name. */
  readonly queue: (name: string) => sqs.IQueue;
}

/**
 * One EventBridge rule per catalogued schedule, putting the entry's message on its queue at the entry's UTC time.
 * It lives beside the queues (the data stack) because the queue policy that lets EventBridge send names the rule.
 */
export class ScheduleRules extends Construct {
  constructor(scope: Construct, id: string, props: ScheduleRulesProps) {
    super(scope, id);
    for (const entry of props.schedules) {
      const [hour, minute] = entry.at.split(':');
      new events.Rule(this, entry.name, {
        description: `Catalogued schedule ${entry.name}: every ${entry.every} at ${entry.at} UTC`,
        schedule: events.Schedule.cron({
          minute: String(Number(minute)),
          hour: String(Number(hour)),
          ...(entry.every === 'week' ? { weekDay: WEEKDAYS[(entry.weekday ?? 1) - 1] } : {}),
        }),
        targets: [
          new targets.SqsQueue(props.queue(entry.queue), {
            message: events.RuleTargetInput.fromObject(entry.message),
          }),
        ],
      });
    }
  }
}
