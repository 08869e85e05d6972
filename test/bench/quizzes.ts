/**
 * The administrators' quiz results at two sizes (`npm run bench -- quizzes`): a course's submissions filled to 100
 * and then to 100 000, one per student (BatchWriteItem of the list items and the students' user items, statistics
 * moved by the same amounts), plus ten real submissions of one student through the use case. One submission per
 * filler student keeps page 1 at 20 distinct students in every order at both sizes, so the profile reads of a page
 * (one per distinct student on it, at most `per_page`) weigh the same and the comparison isolates the list itself. For page 1 of GET /admin/courses/{id}/quiz-results in the
 * default order, with each filter, and with `orderby=score` and `orderby=user_name`, it prints:
 * - the median latency through the local gateway (its own in-memory stack on free ports),
 * - the DynamoDB read units of the request, from ReturnConsumedCapacity, by calling the use case in this process;
 * and the read units of the statistics alone (one GetItem of the filter scope's stats item).
 * Acceptance: page-1 read units at 100 000 within 10 % of those at 100 for every case; statistics one read.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { courseQuizStatsKey, lessonQuizStatsKey } from '../../shared/db/keys/courses.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { nextId } from '../../shared/db/sequence.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { type ListQuizResultsInput, listQuizResults } from '../../shared/domain/quizzes/list-quiz-results.ts';
import {
  type QuizSubmission,
  statsContribution,
  statsScopeOf,
  storedQuizAttempt,
  storedQuizListCopies,
  storedQuizSubmissionPointer,
} from '../../shared/domain/quizzes/quiz-submission-item.ts';
import { findQuizStats } from '../../shared/domain/quizzes/quiz-submission-repository.ts';
import { submitQuiz } from '../../shared/domain/quizzes/submit-quiz.ts';
import { buildUserItem, createUser, userCreationActions } from '../../shared/domain/users/index.ts';
import { medianLatencyOf, readUnits } from './support/measure.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [100, 100_000];
const SAMPLES = 20;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 3 });
const run = Date.now().toString(36);
/** Filler students' ids start here (see fillerUsers). */
let fillerIdBase: number | undefined;

const stack = await startBenchStack(run);

try {
  const admin = await createUser({
    login: `admin_${run}`,
    email: `admin_${run}@example.com`,
    hostRole: 'administrator',
  });
  const student = await createUser({
    login: `student_${run}`,
    email: `student_${run}@example.com`,
    displayName: 'Bench Student',
  });
  const quiz = {
    passing_score: 70,
    questions: [
      {
        id: 'q',
        type: 'true_false',
        question: 'Yes?',
        options: [
          { id: 'true', text: 'Yes', is_correct: true },
          { id: 'false', text: 'No', is_correct: false },
        ],
      },
    ],
  };
  const imported = await runImport({
    courses: [
      {
        ref: 'c',
        title: 'Benchmark course',
        slug: `bench-course-${run}`,
        students: [student.username],
        lessons: [
          { ref: 'a', title: 'Lesson A', slug: `lesson-a-${run}`, quiz },
          { ref: 'b', title: 'Lesson B', slug: `lesson-b-${run}`, quiz },
        ],
      },
    ],
  });
  const courseId = imported.courses.c?.id as number;
  const lessonIds = [imported.courses.c?.lessons.a, imported.courses.c?.lessons.b] as [number, number];
  const adminCaller: Caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  const studentCaller: Caller = {
    ...adminCaller,
    id: student.id,
    username: student.username,
    hostRole: 'member',
  };
  const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.app_password}`).toString('base64')}`;

  // The benchmarked student's own attempts: ten real submissions, the same at both sizes.
  for (let i = 0; i < 10; i++) {
    await submitQuiz(studentCaller, courseId, lessonIds[i % 2] as number, {
      answers: { q: i % 3 === 0 ? 'false' : 'true' },
      time_spent: 30 + i,
    });
  }

  const cases: Array<[string, Partial<ListQuizResultsInput>]> = [
    ['default (submitted_at desc)', {}],
    ['status=passed', { status: 'passed' }],
    ['status=failed', { status: 'failed' }],
    ['lesson_id', { lesson_id: lessonIds[0] }],
    ['lesson_id + status=failed', { lesson_id: lessonIds[0], status: 'failed' }],
    ['user_id', { user_id: student.id }],
    ['user_id + lesson_id', { user_id: student.id, lesson_id: lessonIds[1] }],
    ['orderby=score', { orderby: 'score' }],
    ['orderby=score asc + status=passed', { orderby: 'score', order: 'asc', status: 'passed' }],
    ['orderby=score + lesson_id', { orderby: 'score', lesson_id: lessonIds[1] }],
    ['orderby=user_name', { orderby: 'user_name' }],
    [
      'orderby=user_name asc + lesson_id + status=passed',
      { orderby: 'user_name', order: 'asc', lesson_id: lessonIds[0], status: 'passed' },
    ],
  ];
  const rows: Array<Record<string, string | number>> = [];
  const measured = new Map<string, number[]>();
  let filled = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await fill(courseId, lessonIds, filled, size);
    filled = size;
    process.stdout.write(`filled ${size} submissions in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    for (const [name, filter] of cases) {
      const input: ListQuizResultsInput = {
        status: 'all',
        page: 1,
        per_page: 20,
        orderby: 'submitted_at',
        order: 'desc',
        ...filter,
      };
      const query = new URLSearchParams(
        Object.entries(filter).map(([key, value]): [string, string] => [key, String(value)]),
      ).toString();
      const url = `${stack.apiUrl}/admin/courses/${courseId}/quiz-results${query ? `?${query}` : ''}`;
      const ms = await medianLatency(url, authorization);
      let rowsOnPage = 0;
      const rcu = await readUnits(async () => {
        rowsOnPage = (await listQuizResults(adminCaller, courseId, input)).items.length;
      });
      const statsRcu = await readUnits(() =>
        findQuizStats(statsScopeOf(courseId, { lessonId: input.lesson_id, userId: input.user_id })),
      );
      measured.set(name, [...(measured.get(name) ?? []), rcu]);
      rows.push({
        submissions: size,
        case: name,
        rows: rowsOnPage,
        'p1 median ms': ms.toFixed(1),
        'p1 RCU': rcu,
        'statistics RCU': statsRcu,
      });
    }
  }
  console.table(rows);
  let pass = true;
  for (const [name, [small, large]] of measured) {
    const ratio = (large as number) / (small as number);
    if (Math.abs(ratio - 1) > 0.1) pass = false;
    process.stdout.write(`${name}: RCU ratio 100k/100 ${ratio.toFixed(3)}\n`);
  }
  // The statistics are one consistent BatchGetItem of the scope's item and shards (issue 20): the same read units
  // at both sizes for each case, whatever the number of submissions.
  const statsBySize = new Map<string, number[]>();
  for (const row of rows)
    statsBySize.set(String(row.case), [
      ...(statsBySize.get(String(row.case)) ?? []),
      Number(row['statistics RCU']),
    ]);
  const statsOk = [...statsBySize.values()].every(([small, large]) => small === large && (small ?? 0) <= 11);
  process.stdout.write(
    pass && statsOk
      ? 'PASS: page-1 read units within 10 %; statistics the same read units at both sizes (≤ 11 items)\n'
      : 'FAIL\n',
  );
  process.exitCode = pass && statsOk ? 0 : 1;
} finally {
  await stack.stop();
}

/**
 * Students [from, to) who fill the course: user items only (no passwords), names in a scrambled order. Ids, logins
 * and names have the same width at both sizes (ids from a block reserved above 100 000), so items weigh the same
 * and read units compare sizes, not digits.
 */
async function fillerUsers(from: number, to: number): Promise<Array<{ id: number; name: string }>> {
  fillerIdBase ??= (await nextId('user', 300_000)) + 100_000;
  const users = Array.from({ length: to - from }, (_, i) => {
    const n = from + i;
    const login = `filler_${run}_${String(n).padStart(6, '0')}`;
    const name = `Student ${String((n * 7919) % 100_003).padStart(6, '0')}`;
    return buildUserItem(
      (fillerIdBase as number) + n,
      { login, email: `${login}@example.com`, displayName: name },
      login,
      `${login}@example.com`,
    );
  });
  await batchPut(users.map((user) => userCreationActions(user)[0]?.Put?.Item as Record<string, unknown>));
  return users.map((user) => ({ id: user.id, name: user.display_name }));
}

/**
 * Submissions [from, to), one per new student: attempt slots and id pointers, as the submit path stores them; then the course and
 * lesson statistics moved by exactly what was written (the benchmarked student's own scopes are untouched).
 */
async function fill(
  courseId: number,
  lessonIds: readonly [number, number],
  from: number,
  to: number,
): Promise<void> {
  const users = await fillerUsers(from, to);
  const base = Date.parse('2025-01-01T00:00:00Z');
  const items: Array<Record<string, unknown>> = [];
  const stats = new Map<string, { key: ItemKey; deltas: Record<string, number> }>();
  const move = (key: ItemKey, deltas: Record<string, number>) => {
    const entry = stats.get(`${key.pk}|${key.sk}`) ?? { key, deltas: {} };
    for (const [name, amount] of Object.entries(deltas))
      entry.deltas[name] = (entry.deltas[name] ?? 0) + amount;
    stats.set(`${key.pk}|${key.sk}`, entry);
  };
  for (let n = from; n < to; n++) {
    const user = users[n - from] as { id: number; name: string };
    const lessonId = lessonIds[n % 2] as number;
    const score = (n * 37) % 101;
    const row: QuizSubmission = {
      id: 10_000_000 + n,
      user_id: user.id,
      course_id: courseId,
      lesson_id: lessonId,
      attempt_number: 1,
      score,
      points_earned: score,
      points_possible: 100,
      total_questions: 10,
      correct_answers: Math.floor(score / 10),
      passed: score >= 70,
      passing_score: 70,
      time_spent: 60 + (n % 600),
      status: 'completed',
      submitted_at: new Date(base + n * 1000).toISOString(),
      graded_at: null,
      graded_by: null,
      sort_name: user.name,
      revision: 0,
    };
    items.push(storedQuizAttempt(row), storedQuizSubmissionPointer(row), ...storedQuizListCopies(row));
    move(courseQuizStatsKey(courseId), statsContribution(row));
    move(lessonQuizStatsKey(courseId, lessonId), statsContribution(row));
  }
  await batchPut(items);
  for (const { key, deltas } of stats.values()) {
    const names = Object.keys(deltas);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `ADD ${names.map((_, i) => `#n${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, deltas[name]])),
      }),
    );
  }
}

async function batchPut(items: Array<Record<string, unknown>>): Promise<void> {
  const chunks: Array<Array<Record<string, unknown>>> = [];
  for (let start = 0; start < items.length; start += 25) chunks.push(items.slice(start, start + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] as Array<Record<string, unknown>>;
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
        }
      }
    }),
  );
}
