import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { nextFireTime } from '../../infra/local/schedules.ts';
import { QUEUE_NAMES, SCHEDULES, type ScheduleEntry } from '../../shared/catalogue/index.ts';
import { QUEUE_MESSAGES } from '../../shared/messages/index.ts';

describe('catalogued schedules', () => {
  it.each(SCHEDULES.map((entry) => [entry.name, entry] as const))(
    '%s puts a valid message on a catalogued queue',
    (_name, entry) => {
      expect(QUEUE_NAMES).toContain(entry.queue);
      expect(v.safeParse(QUEUE_MESSAGES[entry.queue], entry.message).success).toBe(true);
      expect(entry.at).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    },
  );

  it('fire at the next UTC time, daily and on the given weekday', () => {
    const daily: ScheduleEntry = { name: 'd', queue: 'digest', every: 'day', at: '07:00', message: {} };
    const weekly: ScheduleEntry = { ...daily, every: 'week', weekday: 1 };
    expect(nextFireTime(daily, new Date('2026-11-22T06:59:59Z')).toISOString()).toBe(
      '2026-11-22T07:00:00.000Z',
    );
    expect(nextFireTime(daily, new Date('2026-11-22T07:00:00Z')).toISOString()).toBe(
      '2026-11-23T07:00:00.000Z',
    );
    // 2026-11-22 is a Sunday: the next Monday 07:00.
    expect(nextFireTime(weekly, new Date('2026-11-22T12:00:00Z')).toISOString()).toBe(
      '2026-11-23T07:00:00.000Z',
    );
    expect(nextFireTime(weekly, new Date('2026-11-23T08:00:00Z')).toISOString()).toBe(
      '2026-11-30T07:00:00.000Z',
    );
  });
});
