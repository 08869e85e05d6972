import type { SequenceName } from '../../../db/keys/sequences.ts';
import type { SpaceItem } from '../../spaces/index.ts';
import type { ImportCourse } from '../import-schema.ts';
import type { ReferenceScope } from '../reference-scope.ts';
import type { BuildContext } from './section.ts';

/** A list inside each course of the file (`lessons`, `comments`, `completions`). */
export type CoursePartName = Extract<
  {
    [Key in keyof ImportCourse]-?: ImportCourse[Key] extends readonly object[] ? Key : never;
  }[keyof ImportCourse],
  keyof ImportCourse
>;

/** The course a part belongs to, once built. */
export interface BuiltCourse {
  readonly ref: string;
  readonly item: SpaceItem;
  /** `courses[0] "ref"`, for labels and messages. */
  readonly where: string;
  /** The course's `students` (user references), whose memberships the completions part builds. */
  readonly students: readonly string[];
}

/**
 * One list inside a course, handled like a section of its own but per course (the courses section runs its parts
 * in the order of `COURSE_PARTS`, after the course itself). A new part is a file exporting one of these, an entry
 * in `COURSE_PARTS` (courses.ts) and its schema in the course's schema (import-schema.ts).
 */
export interface CoursePart<Name extends CoursePartName> {
  readonly name: Name;
  /** Registers the part's refs and checks its references (lessons are `lessonRef(course, lesson)`). */
  resolve(items: ImportCourse[Name], course: ImportCourse, where: string, scope: ReferenceScope): void;
  /** Ids it takes from each sequence, for one course. */
  ids?(items: ImportCourse[Name]): Partial<Record<SequenceName, number>>;
  /** Adds its units; a ref → id map it returns is printed under the part's name in the course's output. */
  build(
    items: ImportCourse[Name],
    course: BuiltCourse,
    context: BuildContext,
  ): Record<string, number> | undefined;
}

/** A course part as the courses section runs it: each step given the whole course, so parts are called alike. */
export interface BoundCoursePart {
  readonly name: CoursePartName;
  resolve(course: ImportCourse, where: string, scope: ReferenceScope): void;
  ids(course: ImportCourse): Partial<Record<SequenceName, number>>;
  build(course: ImportCourse, built: BuiltCourse, context: BuildContext): Record<string, number> | undefined;
}

/** Gives a part its type (Name is inferred from the object) and its form for the courses section. */
export const defineCoursePart = <Name extends CoursePartName>(part: CoursePart<Name>): BoundCoursePart => ({
  name: part.name,
  resolve: (course, where, scope) => part.resolve(course[part.name], course, where, scope),
  ids: (course) => part.ids?.(course[part.name]) ?? {},
  build: (course, built, context) => part.build(course[part.name], built, context),
});
