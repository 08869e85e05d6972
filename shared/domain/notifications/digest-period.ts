import type { DigestFrequency } from '../../vocabulary/notifications.ts';

export type DigestCadence = Exclude<DigestFrequency, 'never'>;

/**
 * The period a digest run belongs to, in UTC: the date for `daily` (`2026-11-22`), the ISO week for `weekly`
 * (`2026-W47`). One e-mail per member per period, whatever runs or redeliveries happen within it.
 */
export function digestPeriod(frequency: DigestCadence, at: Date): string {
  if (frequency === 'daily') return at.toISOString().slice(0, 10);
  // ISO week: the week with the year's first Thursday is week 1; weeks start on Monday.
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
