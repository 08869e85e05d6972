import { commentsSection } from './comments.ts';
import { coursesSection } from './courses.ts';
import { feedsSection } from './feeds.ts';
import { mediaSection } from './media.ts';
import { notificationsSection } from './notifications.ts';
import type { ImportSection, SectionName } from './section.ts';
import { spacesSection } from './spaces.ts';
import { topicsSection } from './topics.ts';
import { usersSection } from './users.ts';

/**
 * The import file's sections in processing order: a section may reference only sections listed before it (and
 * its own earlier items), and ids shared by sections (spaces and courses; lessons and feeds) are handed out in
 * this order. A new section is one file and one entry here, plus its schema in import-schema.ts; a new list inside
 * each course (course comments, completions) is a course part instead (course-part.ts, `COURSE_PARTS`).
 */
export const IMPORT_SECTIONS = [
  usersSection,
  spacesSection,
  topicsSection,
  coursesSection,
  feedsSection,
  commentsSection,
  notificationsSection,
  mediaSection,
] as const;

type Section = (typeof IMPORT_SECTIONS)[number];

/**
 * Sections this project adds beyond spec/operator-cli.md: their part of the id map is printed only when the file
 * has items for them, so a file written to the spec prints exactly the spec's output.
 */
export const EXTENSION_SECTIONS: readonly Section['name'][] = ['media'];

/** What a section's build answers: its part of the id map. */
type OutputOf<S> = S extends ImportSection<SectionName, infer Output> ? Output : never;

type FullIdMap = { [S in Section as S['name']]: OutputOf<S> };

/** The command's output (spec/operator-cli.md "Output"): each section's part under its name. */
export type ImportIdMap = Omit<FullIdMap, 'media'> & Partial<Pick<FullIdMap, 'media'>>;
