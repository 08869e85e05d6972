import type { ImportFile } from '../../shared/domain/import/import-schema.ts';
import { commentsSection } from '../../shared/domain/import/sections/comments.ts';
import { coursesSection } from '../../shared/domain/import/sections/courses.ts';
import { feedsSection } from '../../shared/domain/import/sections/feeds.ts';
import { mediaSection } from '../../shared/domain/import/sections/media.ts';
import { notificationsSection } from '../../shared/domain/import/sections/notifications.ts';
import type { SectionBuilder, SectionName } from '../../shared/domain/import/sections/section.ts';
import { spacesSection } from '../../shared/domain/import/sections/spaces.ts';
import { topicsSection } from '../../shared/domain/import/sections/topics.ts';
import { usersSection } from '../../shared/domain/import/sections/users.ts';

type PreparedOf<S> = S extends { builder(file: ImportFile, prepared: infer P): unknown } ? P : never;

/** What the sections that read before building would have read, for a test of the plan (no table). */
export interface TestPreparation {
  readonly users?: PreparedOf<typeof usersSection>;
  readonly topics?: PreparedOf<typeof topicsSection>;
  readonly notifications?: PreparedOf<typeof notificationsSection>;
  readonly media?: PreparedOf<typeof mediaSection>;
}

/**
 * Every section's builder with the given preparation (buildImportPlan's `builders`), instead of the reads
 * `runImport` makes: a pepper, the next topic serial 1, recipients without stats, no existing media objects.
 */
export function builtWith(
  file: ImportFile,
  prepared: TestPreparation = {},
): Map<SectionName, SectionBuilder<unknown>> {
  return new Map<SectionName, SectionBuilder<unknown>>([
    ['users', usersSection.builder(file, prepared.users ?? { pepper: 'pepper' })],
    ['spaces', spacesSection.builder(file)],
    ['topics', topicsSection.builder(file, prepared.topics ?? { nextSerial: 1 })],
    ['courses', coursesSection.builder(file)],
    ['feeds', feedsSection.builder(file)],
    ['comments', commentsSection.builder(file)],
    ['notifications', notificationsSection.builder(file, prepared.notifications ?? new Map())],
    [
      'media',
      mediaSection.builder(file, prepared.media ?? { feed: new Map(), comment: new Map(), space: new Map() }),
    ],
  ]);
}
