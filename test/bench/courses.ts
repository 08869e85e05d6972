/**
 * Course administration cost at two sizes (`npm run bench -- courses`): a course with 20 and then 5 000 students
 * (memberships with completed lessons) and as many lesson comments, written with BatchWriteItem directly and the
 * course stats moved to match. For GET /admin/courses/{id} and page 1 of GET /admin/courses/{id}/comments:
 * - median latency through the local gateway (its own in-memory stack on free ports),
 * - DynamoDB read units per request, from ReturnConsumedCapacity, calling the use case in this process.
 * And the cost of one PUT …/completion (read and write units).
 *
 * Expected: every figure is the same at both sizes: progress comes from counters, never from reading students, and
 * the comment page from the course's comment index with its total from the stats.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { courseStatsKey } from '../../shared/db/keys/courses.ts';
import { readMeter, writeMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { getAdminCourse } from '../../shared/domain/courses/get-admin-course.ts';
import { listCourseComments } from '../../shared/domain/courses/list-course-comments.ts';
import { setLessonCompletion } from '../../shared/domain/courses/set-lesson-completion.ts';
import { storedComment } from '../../shared/domain/feeds/comment-item.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { storedMembership } from '../../shared/domain/spaces/space-item.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { medianLatencyOf } from './support/measure.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [20, 5_000];
const SAMPLES = 9;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 3 });
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

try {
  const admin = await createUser({
    login: `bench_${run}`,
    email: `bench_${run}@example.com`,
    hostRole: 'administrator',
  });
  const student = await createUser({ login: `student_${run}`, email: `student_${run}@example.com` });
  const caller: Caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  const studentCaller: Caller = { ...caller, id: student.id, username: student.username, hostRole: 'member' };
  const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.app_password}`).toString('base64')}`;
  const output = await runImport({
    courses: [
      {
        ref: 'c',
        title: 'Bench course',
        slug: `bench-course-${run}`,
        admins: [admin.username],
        students: [student.username],
        lessons: [
          { ref: 'one', title: 'One', slug: 'one' },
          { ref: 'two', title: 'Two', slug: 'two' },
        ],
      },
    ],
  });
  const course = output.courses.c as { id: number; lessons: Record<string, number> };
  const [one, two] = [course.lessons.one as number, course.lessons.two as number];

  const rows: Array<Record<string, string | number>> = [];
  let filled = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await fill(course.id, [one, two], admin.id, filled, size);
    filled = size;
    process.stdout.write(
      `filled ${size} students and comments in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    const base = `${stack.apiUrl}/admin/courses/${course.id}`;
    rows.push({
      students: size,
      'course ms': (await medianLatency(base, authorization)).toFixed(1),
      'course RCU': await units(() => getAdminCourse(caller, course.id)),
      'comments p1 ms': (await medianLatency(`${base}/comments`, authorization)).toFixed(1),
      'comments p1 RCU': await units(() => listCourseComments(caller, course.id, { page: 1, per_page: 20 })),
      'completion RCU+WCU': await units(async () => {
        await setLessonCompletion(studentCaller, course.id, one, { state: 'completed' });
        await setLessonCompletion(studentCaller, course.id, one, { state: 'incomplete' });
      }, true),
    });
  }
  console.table(rows);
} finally {
  await stack.stop();
}

/** Students `from..to` (each completed lesson one; every third both) and as many comments, with the stats moved. */
async function fill(courseId: number, lessons: number[], authorId: number, from: number, to: number) {
  const items: Record<string, unknown>[] = [];
  let completions = 0;
  let completed = 0;
  for (let i = from; i < to; i++) {
    const done = i % 3 === 0 ? lessons : lessons.slice(0, 1);
    completions += done.length;
    if (done.length === lessons.length) completed += 1;
    items.push({
      ...storedMembership({
        space_id: courseId,
        user_id: 1_000_000 + i,
        role: 'student',
        status: 'active',
        created_at: new Date().toISOString(),
      }),
      completed_lessons: new Set(done),
      completed_count: done.length,
    });
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    items.push(
      storedComment({
        id: 1_000_000 + i,
        post_id: lessons[i % lessons.length] as number,
        parent_id: null,
        user_id: authorId,
        space_id: courseId,
        space_visibility: 'public',
        course_id: courseId,
        message: `Comment ${i} of ordinary length, about the lesson.`,
        message_rendered: `<p>Comment ${i} of ordinary length, about the lesson.</p>`,
        status: 'published',
        reactions_count: 0,
        created_at: at,
        updated_at: at,
      }),
    );
  }
  for (let start = 0; start < items.length; start += 25) {
    const batch = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: batch } }));
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: courseStatsKey(courseId),
      UpdateExpression:
        'ADD students_count :s, members_count :s, total_completions :t, completed_students :c, lesson_comments_published :s',
      ExpressionAttributeValues: { ':s': to - from, ':t': completions, ':c': completed },
    }),
  );
}

async function units(call: () => Promise<unknown>, withWrites = false): Promise<string | number> {
  readMeter.reset();
  writeMeter.reset();
  await call();
  return withWrites ? `${readMeter.total()}+${writeMeter.total()}` : readMeter.total();
}
