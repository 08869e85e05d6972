/**
 * Time is stored as UTC ISO strings (`2026-01-02T03:04:05.000Z`) and rendered in the contract's two formats,
 * here and nowhere else.
 */
export const nowIso = (): string => new Date().toISOString();

/** `YYYY-MM-DD HH:MM:SS` (topics, quizzes, migrations). */
export const toSqlDateTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** ISO 8601 `YYYY-MM-DDTHH:MM:SS` (profiles, media, notifications). */
export const toIsoDateTime = (iso: string): string => iso.slice(0, 19);

export const toSqlDateTimeOrNull = (iso: string | null | undefined): string | null =>
  iso ? toSqlDateTime(iso) : null;
export const toIsoDateTimeOrNull = (iso: string | null | undefined): string | null =>
  iso ? toIsoDateTime(iso) : null;

/** Normalizes an accepted input timestamp (any ISO 8601 with zone, or zone-less taken as UTC) to stored form. */
export function toStoredTimestamp(input: string): string | undefined {
  const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(input) ? input : `${input.replace(' ', 'T')}Z`;
  const time = Date.parse(withZone);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
