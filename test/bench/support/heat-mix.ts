import { type Community, type Member, pick } from './heat-community.ts';

/** The heat benchmark's mix of requests (percentages also in `npm run bench -- heat --help`). */
export interface Request {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly as: Member;
  readonly body?: unknown;
}

/** What the mix knows of: feeds (seed posts and its own), quiz attempts made (`/courses/c/lessons/l` by member). */
export interface Known {
  readonly feeds: number[];
  readonly attempts: { path: string; as: Member }[];
}

/** The mix, in percent of requests: one entry per kind, documented in the benchmark's help. */
export const MIX: readonly { name: string; percent: number; make: (c: Community, k: Known) => Request }[] = [
  { name: 'GET /feeds', percent: 24, make: (c) => get('GET /feeds', '/feeds', pick(c.members)) },
  {
    name: 'GET /feeds?topics',
    percent: 4,
    make: (c) => get('GET /feeds?topics', `/feeds?topics=${pick(c.topics)}`, pick(c.members)),
  },
  {
    name: 'GET /feeds?space_id',
    percent: 4,
    make: (c) => {
      const space = pick(c.spaces);
      return get('GET /feeds?space_id', `/feeds?space_id=${space.id}`, pick(space.members));
    },
  },
  {
    name: 'GET /feeds/{id}',
    percent: 12,
    make: (c, k) => get('GET /feeds/{id}', `/feeds/${pick(k.feeds)}`, pick(c.members)),
  },
  {
    name: 'GET /feeds/{id}/comments',
    percent: 6,
    make: (c, k) => get('GET /feeds/{id}/comments', `/feeds/${pick(k.feeds)}/comments`, pick(c.members)),
  },
  {
    name: 'POST /feeds/{id}/comments',
    percent: 6,
    make: (c, k) => ({
      name: 'POST /feeds/{id}/comments',
      method: 'POST',
      path: `/feeds/${pick(k.feeds)}/comments`,
      as: pick(c.members),
      body: { message: 'A reply of ordinary length, about a sentence or two.' },
    }),
  },
  {
    name: 'POST /feeds/{id}/react',
    percent: 8,
    make: (c, k) => ({
      name: 'POST /feeds/{id}/react',
      method: 'POST',
      path: `/feeds/${pick(k.feeds)}/react`,
      as: pick(c.members),
      body: { react_type: 'like' },
    }),
  },
  { name: 'POST /feeds', percent: 4, make: (c) => newPost(c) },
  {
    name: 'POST /profile/{u}/follow',
    percent: 2,
    make: (c) => follow(c, 'POST'),
  },
  {
    name: 'DELETE /profile/{u}/follow',
    percent: 1,
    make: (c) => follow(c, 'DELETE'),
  },
  {
    name: 'GET /notifications',
    percent: 6,
    make: (c) => get('GET /notifications', '/notifications', pick(c.members)),
  },
  {
    name: 'GET /notifications/unread',
    percent: 4,
    make: (c) => get('GET /notifications/unread', '/notifications/unread', pick(c.members)),
  },
  {
    name: 'POST /notifications/mark-all-read',
    percent: 2,
    make: (c) => ({
      name: 'POST /notifications/mark-all-read',
      method: 'POST',
      path: '/notifications/mark-all-read',
      as: pick(c.members),
    }),
  },
  {
    name: 'GET /profile/{u}',
    percent: 5,
    make: (c) => get('GET /profile/{u}', `/profile/${pick(c.members).username}`, pick(c.members)),
  },
  {
    name: 'GET /profile/me',
    percent: 3,
    make: (c) => get('GET /profile/me', '/profile/me', pick(c.members)),
  },
  {
    name: 'GET /profile/{u}/spaces',
    percent: 2,
    make: (c) => {
      const m = pick(c.members);
      return get('GET /profile/{u}/spaces', `/profile/${m.username}/spaces`, m);
    },
  },
  {
    name: 'POST …/quiz/submit',
    percent: 3,
    make: (c) => {
      const course = pick(c.courses);
      return {
        name: 'POST …/quiz/submit',
        method: 'POST',
        path: `/courses/${course.id}/lessons/${pick(course.lessons)}/quiz/submit`,
        as: pick(course.students),
        body: { answers: { q1: Math.random() < 0.7 ? 'a' : 'b' }, time_spent: 30 },
      };
    },
  },
  {
    name: 'GET …/quiz/result',
    percent: 1,
    make: (c, k) => {
      if (k.attempts.length === 0) return get('GET /profile/me', '/profile/me', pick(c.members));
      const attempt = pick(k.attempts);
      return get('GET …/quiz/result', `${attempt.path}/quiz/result`, attempt.as);
    },
  },
  {
    name: 'PUT …/completion',
    percent: 2,
    make: (c) => {
      const course = pick(c.courses);
      return {
        name: 'PUT …/completion',
        method: 'PUT',
        path: `/courses/${course.id}/lessons/${course.plain}/completion`,
        as: pick(course.students),
        body: { state: 'completed' },
      };
    },
  },
  { name: 'GET /admin/topics', percent: 1, make: (c) => get('GET /admin/topics', '/admin/topics', c.admin) },
];

/** One member following (or unfollowing) another, never themself (400). */
function follow(c: Community, method: 'POST' | 'DELETE'): Request {
  const as = pick(c.members);
  const others = c.members.filter((member) => member.id !== as.id);
  return {
    name: `${method} /profile/{u}/follow`,
    method,
    path: `/profile/${pick(others).username}/follow`,
    as,
  };
}

const get = (name: string, path: string, as: Member): Request => ({ name, method: 'GET', path, as });

/** A post in one of the author's spaces (or the global feed one time in five), with a topic half the time. */
export function newPost(c: Community): Request {
  const space = pick(c.spaces);
  const global = Math.random() < 0.2;
  return {
    name: 'POST /feeds',
    method: 'POST',
    path: '/feeds',
    as: global ? pick(c.members) : pick(space.members),
    body: {
      message: 'A post of ordinary length, so that each item is about as large as a real feed row. '.repeat(
        2,
      ),
      ...(global ? {} : { space_id: space.id }),
      ...(Math.random() < 0.5 ? { topics: [pick(c.topics)] } : {}),
    },
  };
}

/** A request of the mix, drawn by its percentages. */
export function drawRequest(c: Community, k: Known): Request {
  let roll = Math.random() * MIX.reduce((sum, kind) => sum + kind.percent, 0);
  for (const kind of MIX) {
    roll -= kind.percent;
    if (roll < 0) return kind.make(c, k);
  }
  return (MIX[0] as (typeof MIX)[number]).make(c, k);
}
