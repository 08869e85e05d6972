import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { buildImportPlan, sequenceCounts } from '../../shared/domain/import/build-import-plan.ts';
import { planBatches } from '../../shared/domain/import/plan-batches.ts';
import { parseImportFile } from '../../shared/domain/import/run-import.ts';
import { resolveReferences } from '../../shared/domain/import/resolve-references.ts';
import { MemoryTable } from '../support/import-batches.ts';
import { builtWith } from '../support/import-builders.ts';

/** A course's `comments` and `completions` in the import file (issue 12, item 4): validation and counts. */

const user = (ref: string) => ({ ref, login: ref, email: `${ref}@example.com` });
const courseOf = (extra: Record<string, unknown>) => ({
  users: [user('ann'), user('bob'), user('cat')],
  courses: [
    {
      ref: 'c',
      title: 'C',
      slug: 'c',
      admins: ['cat'],
      students: ['ann', 'bob'],
      lessons: [
        { ref: 'l1', title: 'L1', slug: 'l1' },
        { ref: 'l2', title: 'L2', slug: 'l2' },
        { ref: 'd', title: 'D', slug: 'd', status: 'draft' },
      ],
      ...extra,
    },
  ],
});
const refuse = (file: unknown) => () => resolveReferences(parseImportFile(file));

describe('a course’s comments and completions', () => {
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'unit-test-table';
    resetEnvCache();
  });

  it('refuses completions by non-students, of unknown or draft lessons, and listed twice', () => {
    expect(refuse(courseOf({ completions: [{ user: 'cat', lesson: 'l1' }] }))).toThrow(
      /courses\[0\] "c": completions\[0\]: user: "cat" is not one of the course's students/,
    );
    expect(refuse(courseOf({ completions: [{ user: 'ann', lesson: 'nope' }] }))).toThrow(
      /completions\[0\]: lesson: unknown lesson ref "nope"/,
    );
    expect(refuse(courseOf({ completions: [{ user: 'ann', lesson: 'd' }] }))).toThrow(/"d" is not published/);
    expect(
      refuse(
        courseOf({
          completions: [
            { user: 'ann', lesson: 'l1' },
            { user: 'ann', lesson: 'l1' },
          ],
        }),
      ),
    ).toThrow(/completions\[1\]: completion "ann \/ l1" is also used by/);
    expect(refuse(courseOf({ completions: [{ user: 'ann' }] }))).toThrow(/completions\[0\]\.lesson/);
  });

  it('refuses comments on unknown lessons, by unknown users, and duplicate refs', () => {
    expect(refuse(courseOf({ comments: [{ user: 'ann', lesson: 'zz', message: 'm' }] }))).toThrow(
      /comments\[0\]: lesson: unknown lesson ref "zz"/,
    );
    expect(refuse(courseOf({ comments: [{ user: 'A B', lesson: 'l1', message: 'm' }] }))).toThrow(
      /comments\[0\]: user/,
    );
    expect(
      refuse(
        courseOf({
          comments: [
            { ref: 'x', user: 'ann', lesson: 'l1', message: 'm' },
            { ref: 'x', user: 'bob', lesson: 'l1', message: 'm' },
          ],
        }),
      ),
    ).toThrow(/comments\[1\] "x": ref "x" is also used by/);
    expect(
      refuse(courseOf({ comments: [{ user: 'ann', lesson: 'l1', message: 'm', status: 'spam' }] })),
    ).toThrow(/status/);
  });

  it('writes memberships with their completed sets and counts what the API counts', () => {
    const file = parseImportFile(
      courseOf({
        comments: [
          { ref: 'p', user: 'ann', lesson: 'l1', message: 'hi' },
          { ref: 'q', user: 'bob', lesson: 'l2', message: 'wait', status: 'pending' },
        ],
        completions: [
          { user: 'ann', lesson: 'l1' },
          { user: 'ann', lesson: 'l2' },
          { user: 'bob', lesson: 'l2' },
        ],
      }),
    );
    resolveReferences(file);
    expect(sequenceCounts(file)).toMatchObject({ space: 1, post: 3, comment: 2 });
    const { plan, output } = buildImportPlan(file, {
      firstIds: { user: 10, space: 20, post: 40, comment: 50 },
      externalUserIds: new Map(),
      builders: builtWith(file),
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(output.courses).toEqual({
      c: { id: 20, lessons: { l1: 40, l2: 41, d: 42 }, comments: { p: 50, q: 51 } },
    });
    const table = new MemoryTable();
    for (const batch of planBatches(plan)) table.apply(batch);
    expect(table.get('SPACE#20', 'STATS')).toMatchObject({
      members_count: 3,
      students_count: 2,
      published_lessons_count: 2,
      total_completions: 3,
      completed_students: 1,
      lesson_comments_published: 1,
      lesson_comments_pending: 1,
    });
    expect(table.get('SPACE#20', 'MEMBER#000000000010')).toMatchObject({
      role: 'student',
      completed_lessons: new Set([40, 41]),
      completed_count: 2,
    });
    expect(table.get('SPACE#20', 'MEMBER#000000000011')).toMatchObject({ completed_count: 1 });
    expect(table.get('SPACE#20', 'MEMBER#000000000012')).toMatchObject({ role: 'admin' });
    expect(table.get('SPACE#20', 'MEMBER#000000000012')).not.toHaveProperty('completed_count');
    expect(table.get('POST#40', 'POST')).toMatchObject({ comments_count: 1 });
    expect(table.get('COMMENT#51', 'COMMENT')).toMatchObject({
      status: 'pending',
      course_id: 20,
      gsi3pk: 'COURSE#20#COMMENTS',
    });
  });
});
