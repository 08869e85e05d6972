import type { Fixture } from './buddypress/generate.ts';

/** `results` as the fixture predicts them (no skips on a first run); `images` is not a result item. */
export function expectedResults(fixture: Fixture, skipped = false) {
  return Object.fromEntries(
    Object.entries(fixture.expected)
      .filter(([item]) => item !== 'images')
      .map(([item, counts]) => [
        item,
        skipped
          ? { total: counts.total, migrated: 0, skipped: counts.migrated, failed: counts.failed }
          : { total: counts.total, migrated: counts.migrated, skipped: 0, failed: counts.failed },
      ]),
  );
}
