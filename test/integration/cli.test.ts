import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { quizKey } from '../../shared/db/keys/courses.ts';
import { commentKey, postKey, postListingKey, postTopicKey } from '../../shared/db/keys/feeds.ts';
import { findTopicsByIds } from '../../shared/domain/topics/index.ts';
import { withPostCounts } from '../../shared/domain/topics/topic-repository.ts';
import { findSpacePostCount } from '../../shared/domain/feeds/feed-repository.ts';
import { spaceKey, spaceSlugGuardKey, spaceStatsKey } from '../../shared/db/keys/spaces.ts';
import { topicKey, topicSlugGuardKey } from '../../shared/db/keys/topics.ts';
import { usernameGuardKey } from '../../shared/db/keys/users.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { authenticate } from '../../shared/domain/auth/authenticate.ts';
import { findNotificationById } from '../../shared/domain/notifications/notification-repository.ts';
import {
  GENERAL_SETTINGS_DEFAULTS,
  PRIVACY_SETTINGS_DEFAULTS,
} from '../../shared/domain/settings/settings-defaults.ts';
import { getSettings, putSetting } from '../../shared/domain/settings/settings-groups.ts';
import type { ImportIdMap } from '../../shared/domain/import/build-import-plan.ts';
import { cli, cliJson as json } from '../support/cli.ts';

/** The operator CLI as a subprocess (test/support/cli.ts): one JSON document on stdout, exit code as contract. */
const unique = () => randomBytes(4).toString('hex');
const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const exists = async (key: ItemKey) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const APP_PASSWORD = /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/;

describe('user:create', () => {
  it('creates a user whose application password authenticates', async () => {
    const login = `op_${unique()}`;
    const output = json(
      await cli('user:create', '--login', login, '--email', `${login}@example.com`, '--name', 'Op Erator'),
    );
    expect(output).toEqual({
      id: expect.any(Number),
      username: login,
      app_password: expect.stringMatching(APP_PASSWORD),
    });
    const { app_password } = output as { app_password: string };
    const auth = await authenticate(basic(login, app_password));
    expect(auth.state).toBe('authenticated');
  });

  it('accepts an explicit password and roles', async () => {
    const login = `adm_${unique()}`;
    const password = 'Abcd1234Efgh5678Ijkl9012';
    const output = json(
      await cli(
        'user:create',
        '--login',
        login,
        '--email',
        `${login}@example.com`,
        '--role',
        'administrator',
        '--community-role',
        'moderator',
        '--password',
        password,
      ),
    ) as { app_password: string };
    expect(output.app_password).toBe('Abcd 1234 Efgh 5678 Ijkl 9012');
    const auth = await authenticate(basic(login, password));
    expect(auth).toMatchObject({
      state: 'authenticated',
      caller: { hostRole: 'administrator', communityRoles: ['moderator'] },
    });
  });

  it('refuses a taken login or e-mail and an invalid login with exit 1 and a message', async () => {
    const login = `dup_${unique()}`;
    json(await cli('user:create', '--login', login, '--email', `${login}@example.com`));
    const sameLogin = await cli('user:create', '--login', login, '--email', `other_${login}@example.com`);
    expect(sameLogin).toMatchObject({ code: 1, stdout: '' });
    expect(sameLogin.stderr).toMatch(/username already exists/);
    const sameEmail = await cli(
      'user:create',
      '--login',
      `other_${login}`,
      '--email',
      `${login}@example.com`,
    );
    expect(sameEmail).toMatchObject({ code: 1, stdout: '' });
    expect(sameEmail.stderr).toMatch(/email address is already used/);
    const invalid = await cli('user:create', '--login', 'No Spaces!', '--email', `x${login}@example.com`);
    expect(invalid).toMatchObject({ code: 1, stdout: '' });
    expect(invalid.stderr).toMatch(/Login "No Spaces!"/);
    const badRole = await cli(
      'user:create',
      '--login',
      `r_${login}`,
      '--email',
      `r${login}@example.com`,
      '--role',
      'king',
    );
    expect(badRole).toMatchObject({ code: 1, stdout: '' });
  });
});

describe('token:create', () => {
  it('issues a bearer token that authenticates', async () => {
    const login = `tok_${unique()}`;
    json(await cli('user:create', '--login', login, '--email', `${login}@example.com`));
    const { token } = json(await cli('token:create', '--login', login)) as { token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const auth = await authenticate(`Bearer ${token}`);
    expect(auth).toMatchObject({ state: 'authenticated', caller: { username: login } });
  });

  it('refuses an unknown login', async () => {
    const result = await cli('token:create', '--login', `nobody_${unique()}`);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/No user/);
  });
});

describe('settings:set', () => {
  // This file runs beside the API tests (same stack), so it sets only keys no API test depends on
  // (`logged_in` lets every signed-in caller through, as the default does) and puts the defaults back.
  it('sets general and privacy settings, typed by the key', async () => {
    try {
      expect(json(await cli('settings:set', 'explicit_registration', 'yes'))).toEqual({
        key: 'explicit_registration',
        value: 'yes',
      });
      expect(json(await cli('settings:set', 'site_title', 'My site'))).toEqual({
        key: 'site_title',
        value: 'My site',
      });
      expect(json(await cli('settings:set', 'users_can_register', 'true'))).toEqual({
        key: 'users_can_register',
        value: true,
      });
      expect(json(await cli('settings:set', 'privacy.user_space_visibility', 'logged_in'))).toEqual({
        key: 'privacy.user_space_visibility',
        value: 'logged_in',
      });
      expect(await getSettings('general')).toMatchObject({
        explicit_registration: 'yes',
        site_title: 'My site',
        users_can_register: true,
      });
      expect(await getSettings('privacy')).toMatchObject({ user_space_visibility: 'logged_in' });
    } finally {
      for (const key of ['explicit_registration', 'site_title', 'users_can_register'] as const)
        await putSetting('general', key, GENERAL_SETTINGS_DEFAULTS[key]);
      await putSetting('privacy', 'user_space_visibility', PRIVACY_SETTINGS_DEFAULTS.user_space_visibility);
    }
  });

  it('refuses an unknown key or an invalid value', async () => {
    for (const args of [
      ['no_such_setting', 'x'],
      ['privacy.user_space_visibility', 'nobody'],
      ['disable_global_posts', 'maybe'],
      ['privacy.nope', 'x'],
    ]) {
      const result = await cli('settings:set', ...args);
      expect(result, args.join(' ')).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).not.toBe('');
    }
  });
});

/** The spec's example import file, with every login, e-mail and slug made unique for this run. */
function exampleFile(suffix: string) {
  return {
    users: [
      {
        ref: 'alice',
        login: `alice_${suffix}`,
        email: `alice_${suffix}@example.com`,
        display_name: 'Alice Doe',
        first_name: 'Alice',
        last_name: 'Doe',
        role: 'member',
        community_role: null,
        status: 'active',
        password: null,
        bio: '',
        website: '',
      },
    ],
    spaces: [
      {
        ref: 'general',
        title: 'General',
        slug: `general-${suffix}`,
        privacy: 'public',
        status: 'published',
        description: '',
        settings: { topic_required: 'no', hide_members_count: 'no' },
        members: [
          { user: 'alice', role: 'member' },
          { user: `bob_${suffix}`, role: 'admin' },
        ],
      },
    ],
    topics: [{ ref: 'news', title: 'News', slug: `news-${suffix}`, status: 'active', parent: null }],
    courses: [
      {
        ref: 'ts101',
        title: 'TypeScript 101',
        slug: `ts-101-${suffix}`,
        status: 'published',
        privacy: 'public',
        sequential_lesson_order: true,
        admins: [`carol_${suffix}`],
        students: ['alice'],
        lessons: [
          {
            ref: 'intro',
            title: 'Intro',
            slug: 'intro',
            status: 'published',
            quiz: {
              passing_score: 70,
              max_attempts: 3,
              allow_retake: true,
              time_limit: 0,
              show_correct_answers: true,
              randomize_questions: false,
              questions: [
                {
                  id: 'q1',
                  slug: 'single_choice_1',
                  type: 'multiple_choice',
                  question: '2+2?',
                  points: 1,
                  required: false,
                  explanation: 'Arithmetic.',
                  options: [
                    { id: 'a', text: '4', is_correct: true },
                    { id: 'b', text: '5', is_correct: false },
                  ],
                },
                {
                  id: 'q2',
                  type: 'short_answer',
                  question: 'Name the compiler.',
                  points: 2,
                  accepted_answers: ['tsc'],
                },
              ],
            },
          },
        ],
      },
    ],
    feeds: [
      {
        ref: 'hello',
        user: 'alice',
        space: 'general',
        title: 'Hello',
        message: `Hi @bob_${suffix}`,
        topics: ['news'],
        status: 'published',
        created_at: '2026-01-02T03:04:05Z',
      },
    ],
    comments: [{ ref: 'c1', user: `bob_${suffix}`, feed: 'hello', parent: null, message: 'Welcome!' }],
    notifications: [
      {
        user: 'alice',
        type: 'new_comment',
        actor: `bob_${suffix}`,
        title: 'Bob commented',
        message: 'Welcome!',
        object_type: 'feed',
        object: 'hello',
        is_read: false,
        created_at: '2026-01-02T03:05:00Z',
      },
    ],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'cli-import-'));
function writeFile(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

async function createUsers(suffix: string): Promise<{ bob: number; carol: number }> {
  const bob = json(
    await cli('user:create', '--login', `bob_${suffix}`, '--email', `bob_${suffix}@example.com`),
  ) as { id: number };
  const carol = json(
    await cli('user:create', '--login', `carol_${suffix}`, '--email', `carol_${suffix}@example.com`),
  ) as { id: number };
  return { bob: bob.id, carol: carol.id };
}

type IdMap = ImportIdMap;

describe('import', () => {
  it('imports the spec example and prints the id map', async () => {
    const suffix = unique();
    const { bob, carol } = await createUsers(suffix);
    const file = writeFile(`example-${suffix}.json`, exampleFile(suffix));
    const map = json(await cli('import', file)) as IdMap;

    expect(map).toEqual({
      users: {
        alice: {
          id: expect.any(Number),
          username: `alice_${suffix}`,
          app_password: expect.stringMatching(APP_PASSWORD),
        },
      },
      spaces: { general: expect.any(Number) },
      topics: { news: expect.any(Number) },
      courses: { ts101: { id: expect.any(Number), lessons: { intro: expect.any(Number) } } },
      feeds: { hello: expect.any(Number) },
      comments: { c1: expect.any(Number) },
      notifications: [expect.any(Number)],
    });
    // Courses share the space sequence (after the file's spaces); lessons and feeds share the post sequence.
    expect(map.courses.ts101!.id).toBe(map.spaces.general! + 1);
    expect(map.feeds.hello).toBe(map.courses.ts101!.lessons.intro! + 1);

    const alice = map.users.alice!;
    expect((await authenticate(basic(alice.username, alice.app_password))).state).toBe('authenticated');

    const space = await exists(spaceKey(map.spaces.general!));
    expect(space).toMatchObject({
      type: 'community',
      slug: `general-${suffix}`,
      created_by: bob,
      privacy: 'public',
    });
    expect(await exists(spaceStatsKey(map.spaces.general!))).toMatchObject({ members_count: 2 });
    expect(await findSpacePostCount(map.spaces.general!)).toBe(1);

    const course = await exists(spaceKey(map.courses.ts101!.id));
    expect(course).toMatchObject({
      type: 'course',
      created_by: carol,
      settings: { sequential_lesson_order: 'yes' },
    });
    expect(await exists(spaceStatsKey(map.courses.ts101!.id))).toMatchObject({
      members_count: 2,
      students_count: 1,
      published_lessons_count: 1,
    });
    expect(await exists(postKey(map.courses.ts101!.lessons.intro!))).toMatchObject({
      type: 'course_lesson',
      course_id: map.courses.ts101!.id,
    });
    const quiz = await exists(quizKey(map.courses.ts101!.lessons.intro!));
    expect(quiz).toMatchObject({ passing_score: 70, max_attempts: 3 });
    expect(quiz?.questions[1]).toMatchObject({
      id: 'q2',
      slug: 'q2',
      accepted_answers: ['tsc'],
      options: [],
      required: false,
    });

    const feed = await exists(postKey(map.feeds.hello!));
    expect(feed).toMatchObject({
      user_id: alice.id,
      space_id: map.spaces.general,
      topic_ids: new Set([map.topics.news]),
      comments_count: 1,
      created_at: '2026-01-02T03:04:05.000Z',
    });
    expect(feed?.message_rendered).toContain(`<a href="/u/bob_${suffix}"`);
    expect(await exists(postTopicKey(map.feeds.hello!, map.topics.news!))).toBeDefined();
    expect(await exists(topicKey(map.topics.news!))).toMatchObject({ status: 'active' });
    const [news] = await withPostCounts(await findTopicsByIds([map.topics.news!]));
    expect(news?.posts_count).toBe(1);
    // The feed is listed through its listing entry (the post item carries no index keys).
    expect(await exists(postListingKey(map.feeds.hello!))).toMatchObject({ gsi2pk: expect.any(String) });
    expect(await exists(commentKey(map.comments.c1!))).toMatchObject({
      user_id: bob,
      post_id: map.feeds.hello,
    });

    const notification = await findNotificationById(map.notifications[0]!);
    expect(notification).toMatchObject({
      user_id: alice.id,
      actor_id: bob,
      object_id: map.feeds.hello,
      is_read: false,
    });
  });

  it('refuses the same file a second time with exit 1 and writes nothing', async () => {
    const suffix = unique();
    await createUsers(suffix);
    const content = exampleFile(suffix);
    json(await cli('import', writeFile(`first-${suffix}.json`, content)));

    // Same users (taken now) but a fresh space slug: if anything were written, that slug would be taken.
    const fresh = `fresh-${suffix}`;
    const again = { ...content, spaces: [{ ...content.spaces[0]!, slug: fresh }] };
    const result = await cli('import', writeFile(`again-${suffix}.json`, again));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain(`users[0] "alice": login "alice_${suffix}" is already taken`);
    expect(await exists(spaceSlugGuardKey(fresh))).toBeUndefined();
  });

  it('refuses an invalid field, naming the item, and writes nothing', async () => {
    const suffix = unique();
    await createUsers(suffix);
    const content = exampleFile(suffix);
    const bad = { ...content, spaces: [{ ...content.spaces[0]!, privacy: 'open' }] };
    const result = await cli('import', writeFile(`bad-${suffix}.json`, bad));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('spaces[0] "general": privacy');
    expect(await exists(usernameGuardKey(`alice_${suffix}`))).toBeUndefined();
    expect(await exists(topicSlugGuardKey(`news-${suffix}`))).toBeUndefined();

    const unknownField = { ...content, topics: [{ ...content.topics[0]!, colour: '#fff' }] };
    const second = await cli('import', writeFile(`field-${suffix}.json`, unknownField));
    expect(second).toMatchObject({ code: 1, stdout: '' });
    expect(second.stderr).toContain('topics[0] "news": colour');
  });

  it('refuses an unknown ref, naming the item, and writes nothing', async () => {
    const suffix = unique();
    await createUsers(suffix);
    const content = exampleFile(suffix);
    const unknownUser = { ...content, feeds: [{ ...content.feeds[0]!, user: `ghost_${suffix}` }] };
    const result = await cli('import', writeFile(`ghost-${suffix}.json`, unknownUser));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain(`feeds[0] "hello": user: unknown user "ghost_${suffix}"`);
    expect(await exists(usernameGuardKey(`alice_${suffix}`))).toBeUndefined();
    expect(await exists(spaceSlugGuardKey(`general-${suffix}`))).toBeUndefined();

    const unknownTopic = { ...content, feeds: [{ ...content.feeds[0]!, topics: ['sports'] }] };
    const second = await cli('import', writeFile(`topic-${suffix}.json`, unknownTopic));
    expect(second).toMatchObject({ code: 1, stdout: '' });
    expect(second.stderr).toContain('feeds[0] "hello": topics[0]: unknown topic ref "sports"');
    expect(await exists(usernameGuardKey(`alice_${suffix}`))).toBeUndefined();
  });

  it('refuses a file that is not JSON', async () => {
    const result = await cli('import', writeFile('broken.json', '{ "users": ['));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(join(dir, 'broken.json'), 'utf8')).toContain('users');
  });
});
