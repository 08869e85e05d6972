import { runImport } from '../../../shared/domain/import/run-import.ts';

/**
 * The heat benchmark's community and its mix of requests. Everything is created through the import and the API (never
 * by writing items), so the figures follow whatever storage shapes the code has. Every login, slug and title
 * carries digits, so a partition key without a digit is one that no member, space, post, topic or course names.
 */
export interface Member {
  readonly id: number;
  readonly username: string;
  readonly authorization: string;
}

export interface Community {
  readonly members: readonly Member[];
  readonly admin: Member;
  readonly spaces: readonly { id: number; members: readonly Member[] }[];
  readonly topics: readonly number[];
  readonly courses: readonly {
    id: number;
    lessons: readonly number[];
    plain: number;
    students: readonly Member[];
  }[];
}

/** One quiz question per lesson: a choice, always the same correct answer, so submissions are realistic. */
const QUIZ = {
  questions: [
    {
      id: 'q1',
      type: 'multiple_choice',
      question: 'Which is right?',
      options: [
        { id: 'a', text: 'This one', is_correct: true },
        { id: 'b', text: 'That one', is_correct: false },
      ],
    },
  ],
};

export const pick = <T>(from: readonly T[]): T => from[Math.floor(Math.random() * from.length)] as T;

/**
 * `members` members (one of them a host administrator), `spaces` spaces each member joins three of, one topic per
 * twenty members (at least five), one course per fifty members (at least two) of three quiz lessons, each member
 * enrolled in one course.
 */
export async function seedCommunity(
  run: string,
  size: { members: number; spaces: number },
): Promise<Community> {
  const users = Array.from({ length: size.members }, (_, n) => ({
    ref: `m${n}`,
    login: `heat${run}m${n}`,
    email: `heat${run}m${n}@example.com`,
    display_name: `Member ${n} ${run}`,
    ...(n === 0 ? { role: 'administrator' as const } : {}),
  }));
  const spaceMembers = Array.from({ length: size.spaces }, () => new Set<number>());
  for (let n = 0; n < size.members; n++) {
    for (let k = 0; k < 3; k++) spaceMembers[(n * 7 + k * 13) % size.spaces]?.add(n);
  }
  const topics = Math.max(5, Math.round(size.members / 20));
  const courses = Math.max(2, Math.round(size.members / 50));
  const output = await runImport({
    users,
    spaces: spaceMembers.map((members, s) => ({
      ref: `s${s}`,
      title: `Space ${s} ${run}`,
      slug: `space${s}-${run}`,
      members: [...members].map((n, at) => ({ user: `m${n}`, role: at === 0 ? 'admin' : 'member' })),
    })),
    topics: Array.from({ length: topics }, (_, t) => ({
      ref: `t${t}`,
      title: `Topic ${t} ${run}`,
      slug: `topic${t}-${run}`,
    })),
    courses: Array.from({ length: courses }, (_, c) => ({
      ref: `c${c}`,
      title: `Course ${c} ${run}`,
      slug: `course${c}-${run}`,
      admins: ['m0'],
      students: users.filter((_, n) => n % courses === c && n !== 0).map((user) => user.ref),
      lessons: [0, 1, 2, 3].map((l) => ({
        ref: `l${l}`,
        title: `Lesson ${l} of ${c} ${run}`,
        slug: `lesson${l}-course${c}-${run}`,
        status: 'published',
        // Three quiz lessons and a plain one (completion is marked on plain lessons; a quiz's pass completes its own).
        ...(l < 3 ? { quiz: QUIZ } : {}),
      })),
    })),
  });
  const out = output as unknown as {
    users: Record<string, { id: number; username: string; app_password: string }>;
    spaces: Record<string, number>;
    topics: Record<string, number>;
    courses: Record<string, { id: number; lessons: Record<string, number> }>;
  };
  const members = users.map((user) => {
    const created = out.users[user.ref] as { id: number; username: string; app_password: string };
    return {
      id: created.id,
      username: created.username,
      authorization: `Basic ${Buffer.from(`${created.username}:${created.app_password}`).toString('base64')}`,
    };
  });
  return {
    members,
    admin: members[0] as Member,
    spaces: spaceMembers.map((set, s) => ({
      id: out.spaces[`s${s}`] as number,
      members: [...set].map((n) => members[n] as Member),
    })),
    topics: Object.values(out.topics),
    courses: Array.from({ length: courses }, (_, c) => {
      const course = out.courses[`c${c}`] as { id: number; lessons: Record<string, number> };
      return {
        id: course.id,
        lessons: [0, 1, 2].map((l) => course.lessons[`l${l}`] as number),
        plain: course.lessons.l3 as number,
        students: members.filter((_, n) => n % courses === c && n !== 0),
      };
    }),
  };
}
