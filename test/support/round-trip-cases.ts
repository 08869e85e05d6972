import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { ROUTES } from '../../shared/catalogue/index.ts';
import { cacheOembed } from '../../shared/domain/media/oembed-cache-repository.ts';
import { unsubscribeToken } from '../../shared/domain/notifications/unsubscribe-token.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from './api.ts';
import { importCourse, type TestCourse } from './course-admin.ts';
import { createSpace, createTopics, postComment, postFeed } from './feeds.ts';
import { smallPng, uploadMultipart, uploadPresigned } from './media.ts';
import { importQuizCourse, type QuizCourse, submit } from './quiz-course.ts';
import { acceptanceLinkIn, mailsTo } from './ses-inbox.ts';
import { createdTopic } from './topics.ts';

/**
 * One representative successful request per catalogued route, for the round-trip meter test
 * (test/api/round-trips.test.ts). Each case prepares what it needs (fresh where the request consumes it: a feed to
 * delete, an invitation to accept) and answers the response of the one request measured; only that response's
 * `x-local-dynamodb` header is read, so set-up requests never count.
 */
export type RoundTripCase = () => Promise<ApiResponse>;

interface World {
  admin: TestUser;
  communityAdmin: TestUser;
  alice: TestUser;
  bob: TestUser;
  spaceId: number;
  topicId: number;
  feedId: number;
  quiz: QuizCourse;
  essaySubmissionId: number;
  course: TestCourse;
  mediaId: number;
}

const tag = () => randomBytes(4).toString('hex');
// biome-ignore lint/suspicious/noExplicitAny: set-up reads JSON bodies loosely.
const ok = <T = any>(response: ApiResponse<T>, what: string): ApiResponse<T> => {
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${response.text}`);
  return response;
};

export async function buildWorld(): Promise<World> {
  const [admin, communityAdmin, alice, bob] = await Promise.all([
    createTestUser({ hostRole: 'administrator' }),
    createTestUser({ communityRole: 'admin' }),
    createTestUser({ displayName: `Alice ${tag()}` }),
    createTestUser({ displayName: `Bob ${tag()}` }),
  ]);
  const [spaceId, [topicId], quiz, course] = await Promise.all([
    createSpace({
      members: [
        [alice, 'admin'],
        [bob, 'member'],
      ],
    }),
    createTopics(1),
    importQuizCourse(),
    importCourse({ students: 2 }),
  ]);
  const feed = await postFeed(alice, {
    title: 'Round trips',
    message: 'A feed to read.',
    space_id: spaceId,
    topics: [topicId as number],
  });
  await postComment(bob, feed.id, 'A comment to list.');
  const submitted = await submit(quiz.student, quiz.courseId, quiz.lessons.quiz, {
    answers: { q_choice: 'five', q_select: ['two', 'three'], q_essay: 'An essay.' },
    time_spent: 40,
  });
  const { complete } = await uploadPresigned(alice, {
    bytes: await smallPng(),
    name: 'photo.png',
    type: 'image/png',
  });
  ok(complete, 'media upload');
  return {
    admin,
    communityAdmin,
    alice,
    bob,
    spaceId,
    topicId: topicId as number,
    feedId: feed.id,
    quiz,
    essaySubmissionId: submitted.body.quiz_result.id,
    course,
    mediaId: (complete.body.data as { id: number }).id,
  };
}

/** A notification of `user` exists once `cause` ran (delivery may be asynchronous): its id. */
async function notificationOf(user: TestUser, cause: () => Promise<unknown>): Promise<number> {
  const before = new Set(await notificationIds(user));
  await cause();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const fresh = (await notificationIds(user)).find((id) => !before.has(id));
    if (fresh !== undefined) return fresh;
    if (Date.now() > deadline) throw new Error('no notification arrived within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function notificationIds(user: TestUser): Promise<number[]> {
  const response = await api<{ notifications: { data: { id: number }[] } }>('GET', '/notifications', {
    as: user,
    query: { per_page: 100 },
  });
  return ok(response, 'notifications').body.notifications.data.map((item) => item.id);
}

/**
 * Cases by operation id; a catalogued route without one fails the test. A GET route whose path names only objects
 * the world holds needs no case of its own: it is measured reading them as alice (`readsOfTheWorld`).
 */
export function roundTripCases(w: World): Record<string, RoundTripCase> {
  return { ...readsOfTheWorld(w), ...writtenCases(w) };
}

/** Every catalogued GET route whose path parameters are all ids the world holds, read as alice (a space admin). */
function readsOfTheWorld(w: World): Record<string, RoundTripCase> {
  const ids: Readonly<Record<string, number>> = {
    feed_id: w.feedId,
    space_id: w.spaceId,
    topic_id: w.topicId,
    media_id: w.mediaId,
  };
  const cases: Record<string, RoundTripCase> = {};
  for (const route of ROUTES) {
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    if (route.method !== 'GET' || names.length === 0 || !names.every((name) => name in ids)) continue;
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
    cases[route.operationId] = () => api('GET', path, { as: w.alice });
  }
  return cases;
}

/** The cases written out: requests that need a body, a fresh object, another caller or several ids. */
function writtenCases(w: World): Record<string, RoundTripCase> {
  const { admin, alice, bob, quiz, course } = w;
  const lesson = course.lessons.one as number;
  const freshFeed = async (as: TestUser) =>
    (await postFeed(as, { title: 'Short-lived', message: 'To change.', space_id: w.spaceId })).id;
  const commenter = async () => {
    const user = await createTestUser();
    return user;
  };
  return {
    // Platform (no storage).
    getOpenApiDocument: () => api('GET', '/openapi.json'),
    getApiReference: () => api('GET', '/docs'),
    getApiReferenceScript: () => api('GET', '/docs/redoc.standalone.js'),
    // Feeds.
    listFeeds: () => api('GET', '/feeds', { as: bob }),
    createFeed: () => api('POST', '/feeds', { as: alice, body: { message: 'New.', space_id: w.spaceId } }),
    getFeed: () => api('GET', `/feeds/${w.feedId}`, { as: bob }),
    updateFeed: async () =>
      api('PUT', `/feeds/${await freshFeed(alice)}`, { as: alice, body: { message: 'Edited.' } }),
    deleteFeed: async () => api('DELETE', `/feeds/${await freshFeed(alice)}`, { as: alice }),
    listFeedComments: () => api('GET', `/feeds/${w.feedId}/comments`, { as: alice }),
    createFeedComment: () =>
      api('POST', `/feeds/${w.feedId}/comments`, { as: bob, body: { message: 'Another comment.' } }),
    reactToFeed: async () =>
      api('POST', `/feeds/${w.feedId}/react`, { as: await commenter(), body: { react_type: 'like' } }),
    uploadMedia: async () =>
      uploadMultipart(alice, { bytes: await smallPng(), name: 'direct.png', type: 'image/png' }),
    getOembed: async () => {
      const url = `https://video.example.com/watch/${tag()}`;
      const digest = createHash('sha256').update(new URL(url).href).digest('hex');
      const record = { type: 'video' as const, provider_name: 'Example', provider_url: null, title: 'Clip' };
      await cacheOembed(digest, { ...nullRecord, ...record }, Math.floor(Date.now() / 1000) + 3600);
      return api('GET', '/feeds/oembed', { as: alice, query: { url } });
    },
    // Media.
    completeMediaUpload: async () => {
      const requested = ok(
        await api<{ data: { id: number; upload: { url: string; fields: Record<string, string> } } }>(
          'POST',
          '/feeds/media-upload',
          {
            as: alice,
            body: { file_name: 'p.png', file_type: 'image/png', file_size: (await smallPng()).length },
          },
        ),
        'presign',
      );
      const { id, upload } = (
        requested.body as { data: { id: number; upload: { url: string; fields: Record<string, string> } } }
      ).data;
      const form = new FormData();
      for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
      form.append('file', new Blob([await smallPng()], { type: 'image/png' }), 'upload');
      const posted = await fetch(upload.url, { method: 'POST', body: form });
      if (!posted.ok) throw new Error(`bucket POST ${posted.status}`);
      return api('POST', `/media/${id}/complete`, { as: alice });
    },
    getMedia: () => api('GET', `/media/${w.mediaId}`, { as: alice }),
    createLiveTicket: () => api('POST', '/live/tickets', { as: alice }),
    deleteMedia: async () => {
      const { complete } = await uploadPresigned(alice, {
        bytes: await smallPng(),
        name: 'x.png',
        type: 'image/png',
      });
      return api('DELETE', `/media/${(ok(complete, 'upload').body.data as { id: number }).id}`, {
        as: alice,
      });
    },
    // Profiles.
    getMyProfile: () => api('GET', '/profile/me', { as: alice }),
    updateMyProfile: () => api('PUT', '/profile/me', { as: alice, body: { display_name: `Alice ${tag()}` } }),
    getProfile: () => api('GET', `/profile/${alice.username}`, { as: bob }),
    listProfileComments: () => api('GET', `/profile/${bob.username}/comments`, { as: alice }),
    listProfileSpaces: () => api('GET', `/profile/${alice.username}/spaces`, { as: alice }),
    listProfileMedia: () => api('GET', `/profile/${alice.username}/media`, { as: bob }),
    followMember: async () => api('POST', `/profile/${alice.username}/follow`, { as: await commenter() }),
    unfollowMember: async () => {
      const fan = await commenter();
      ok(await api('POST', `/profile/${alice.username}/follow`, { as: fan }), 'follow');
      return api('DELETE', `/profile/${alice.username}/follow`, { as: fan });
    },
    listFollowers: () => api('GET', `/profile/${alice.username}/followers`, { as: bob }),
    listFollowings: () => api('GET', `/profile/${bob.username}/followings`, { as: alice }),
    // Notifications.
    listNotifications: () => api('GET', '/notifications', { as: alice }),
    listUnreadNotifications: () => api('GET', '/notifications/unread', { as: alice }),
    markNotificationRead: async () => {
      const id = await notificationOf(alice, () => postComment(bob, w.feedId, 'Read me.'));
      return api('POST', `/notifications/${id}/read`, { as: alice });
    },
    markAllNotificationsRead: () => api('POST', '/notifications/mark-all-read', { as: alice }),
    deleteNotification: async () => {
      const id = await notificationOf(alice, () => postComment(bob, w.feedId, 'Delete me.'));
      return api('DELETE', `/notifications/${id}`, { as: alice });
    },
    deleteAllNotifications: async () => {
      const user = await createTestUser();
      const feed = await postFeed(user, { message: 'Mine.', space_id: null });
      await notificationOf(user, () => postComment(bob, feed.id, 'Hello.'));
      return api('DELETE', '/notifications/delete-all', { as: user });
    },
    getNotificationPreferences: () => api('GET', '/profile/notification-preferences', { as: bob }),
    updateNotificationPreferences: () =>
      api('PUT', '/profile/notification-preferences', {
        as: bob,
        body: { email_notifications: { new_reaction: true } },
      }),
    unsubscribeFromDigest: async () =>
      api('GET', '/notifications/digest/unsubscribe', { query: { token: await unsubscribeToken(bob.id) } }),
    // Topics.
    listTopics: () => api('GET', '/admin/topics', { as: admin }),
    createTopic: () => api('POST', '/admin/topics', { as: admin, body: { title: `Topic ${tag()}` } }),
    updateTopic: () => api('PUT', `/admin/topics/${w.topicId}`, { as: admin, body: { description: tag() } }),
    deleteTopic: async () => {
      const topic = await createdTopic(admin, { title: `Gone ${tag()}` });
      return api('DELETE', `/admin/topics/${topic.id}`, { as: admin });
    },
    getTopicsConfig: () => api('GET', '/admin/topics/config', { as: admin }),
    updateTopicsConfig: async () => {
      const current = ok(await api('GET', '/admin/topics/config', { as: admin }), 'config').body;
      return api('POST', '/admin/topics/config', {
        as: admin,
        body: { display_style: current.display_style },
      });
    },
    // Settings, spaces, invitations.
    getGeneralSettings: () => api('GET', '/admin/general', { as: w.communityAdmin }),
    searchSpaceUsers: () =>
      api('GET', '/spaces/users/search', {
        as: alice,
        query: { space_id: w.spaceId, search: bob.username.slice(0, 8) },
      }),
    createInvitation: () =>
      api('POST', '/invitations', {
        as: alice,
        body: { space_id: String(w.spaceId), email: `invitee_${tag()}@example.com` },
      }),
    acceptInvitation: async () => {
      const email = `invitee_${tag()}@example.com`;
      ok(
        await api('POST', '/invitations', { as: alice, body: { space_id: String(w.spaceId), email } }),
        'invite',
      );
      const deadline = Date.now() + 10_000;
      let mails = await mailsTo(email);
      while (mails.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        mails = await mailsTo(email);
      }
      const invitee = await createTestUser({ email });
      return api('POST', new URL(acceptanceLinkIn(mails[0])).pathname.replace(/^\/v2/, ''), { as: invitee });
    },
    // Courses and quizzes.
    getAdminCourse: () => api('GET', `/admin/courses/${course.courseId}`, { as: course.courseAdmin }),
    listCourseComments: () =>
      api('GET', `/admin/courses/${course.courseId}/comments`, { as: course.courseAdmin }),
    setLessonCompletion: () =>
      api('PUT', `/courses/${course.courseId}/lessons/${lesson}/completion`, {
        as: course.students[0],
        body: { state: 'completed' },
      }),
    listLessonComments: () =>
      api('GET', `/courses/${course.courseId}/lessons/${lesson}/comments`, { as: course.students[0] }),
    createLessonComment: () =>
      api('POST', `/courses/${course.courseId}/lessons/${lesson}/comments`, {
        as: course.students[1],
        body: { message: 'A question.' },
      }),
    submitQuiz: () =>
      api('POST', `/courses/${quiz.courseId}/lessons/${quiz.lessons.last}/quiz/submit`, {
        as: quiz.student2,
        body: { answers: { q_choice: 'four' }, time_spent: 10 },
      }),
    getQuizResult: () =>
      api('GET', `/courses/${quiz.courseId}/lessons/${quiz.lessons.quiz}/quiz/result`, { as: quiz.student }),
    listQuizResults: () =>
      api('GET', `/admin/courses/${quiz.courseId}/quiz-results`, { as: quiz.courseAdmin }),
    gradeQuizResult: () =>
      api('POST', `/admin/courses/${quiz.courseId}/quiz-results/${w.essaySubmissionId}`, {
        as: quiz.courseAdmin,
        body: { answers: { q_essay: { is_correct: true, points_earned: 5 } }, feedback: 'Good.' },
      }),
    // Migrations (reads only; a start is not measured: see the test).
    listMigrations: () => api('GET', '/migrations', { as: admin }),
    getBuddypressMigrationConfig: () => api('GET', '/migrations/buddypress/config', { as: admin }),
    getBuddypressMigrationStatus: () => api('GET', '/migrations/buddypress/status', { as: admin }),
  };
}

const nullRecord = {
  provider_name: null,
  provider_url: null,
  title: null,
  author_name: null,
  thumbnail_url: null,
  html: null,
  width: null,
  height: null,
};
