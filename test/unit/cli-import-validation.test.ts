import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { feedStats } from '../../shared/db/keys/feeds.ts';
import { spacePostCounts } from '../../shared/db/keys/spaces.ts';
import { shardKey, shardOf } from '../../shared/db/sharded-counters.ts';
import { buildImportPlan, sequenceCounts } from '../../shared/domain/import/build-import-plan.ts';
import { planBatches } from '../../shared/domain/import/plan-batches.ts';
import { parseImportFile } from '../../shared/domain/import/run-import.ts';
import { resolveReferences } from '../../shared/domain/import/resolve-references.ts';
import { renderMarkdown } from '../../shared/domain/text/render-markdown.ts';
import { MemoryTable } from '../support/import-batches.ts';
import { builtWith } from '../support/import-builders.ts';

/** Validation and reference resolution run before any I/O; these pin their messages (they name the item). */
const refuse = (file: unknown) => () => resolveReferences(parseImportFile(file));

const user = (ref: string) => ({ ref, login: ref, email: `${ref}@example.com` });
const question = (overrides: Record<string, unknown>) => ({
  id: 'q1',
  type: 'multiple_choice',
  question: '?',
  options: [
    { id: 'a', text: 'A', is_correct: true },
    { id: 'b', text: 'B', is_correct: false },
  ],
  ...overrides,
});
const courseWithQuestion = (q: Record<string, unknown>) => ({
  courses: [
    {
      ref: 'c',
      title: 'C',
      slug: 'c',
      lessons: [{ ref: 'l', title: 'L', slug: 'l', quiz: { questions: [q] } }],
    },
  ],
});

describe('import validation', () => {
  // The item builders name the table in their transaction items; no request is made.
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'unit-test-table';
    resetEnvCache();
  });

  it('accepts an empty file', () => {
    expect(parseImportFile({})).toMatchObject({ users: [], notifications: [] });
  });

  it('names the item of an invalid field', () => {
    expect(refuse({ users: [{ ...user('ann'), login: 'A n' }] })).toThrow(/users\[0\] "ann": login/);
    expect(refuse({ users: [{ ...user('ann'), email: 'nope' }] })).toThrow(/users\[0\] "ann": email/);
    expect(refuse({ spaces: [{ ref: 's', title: 'S', slug: 'Not A Slug' }] })).toThrow(
      /spaces\[0\] "s": slug/,
    );
    expect(refuse({ spaces: [{ ref: 's', title: 'S', slug: 's', status: 'open' }] })).toThrow(
      /spaces\[0\] "s": status/,
    );
    expect(refuse({ topics: [{ ref: 't', title: 'x'.repeat(193) }] })).toThrow(/topics\[0\] "t": title/);
    expect(refuse({ feeds: [{ user: 'a', message: 'x'.repeat(15_001) }] })).toThrow(/feeds\[0\]: message/);
    expect(refuse({ notifications: [{ user: 'a', type: 'poke' }] })).toThrow(/notifications\[0\]: type/);
    expect(refuse({ feeds: [{ user: 'a', message: 'm', created_at: 'yesterday' }] })).toThrow(/created_at/);
    expect(refuse({ users: [{ ...user('ann'), nickname: 'x' }] })).toThrow(/users\[0\] "ann": nickname/);
    expect(refuse({ groups: [] })).toThrow(/groups/);
  });

  it('applies the quiz rules', () => {
    expect(refuse(courseWithQuestion(question({ type: 'quiz' })))).toThrow(
      /lessons\[0\]\.quiz\.questions\[0\]\.type/,
    );
    const noCorrect = question({
      options: [
        { id: 'a', text: 'A', is_correct: false },
        { id: 'b', text: 'B', is_correct: false },
      ],
    });
    expect(refuse(courseWithQuestion(noCorrect))).toThrow(/at least one option must be correct/);
    const duplicateIds = question({
      options: [
        { id: 'a', text: 'A', is_correct: true },
        { id: 'a', text: 'B', is_correct: false },
      ],
    });
    expect(refuse(courseWithQuestion(duplicateIds))).toThrow(/option ids must be unique/);
    const tooMany = question({
      options: [
        { id: 'a', text: 'A', is_correct: true },
        { id: 'b', text: 'B', is_correct: true },
      ],
    });
    expect(refuse(courseWithQuestion(tooMany))).toThrow(/exactly one option/);
    expect(() =>
      refuse(courseWithQuestion(question({ type: 'multiple_select', options: tooMany.options })))(),
    ).not.toThrow();
    expect(
      refuse({
        courses: [
          {
            ...courseWithQuestion(question({})).courses[0],
            lessons: [
              { ref: 'l', title: 'L', slug: 'l', quiz: { passing_score: 101, questions: [question({})] } },
            ],
          },
        ],
      }),
    ).toThrow(/passing_score/);
  });

  it('names unknown and duplicate refs', () => {
    expect(refuse({ feeds: [{ ref: 'f', user: 'anna', space: 'nope', message: 'm' }] })).toThrow(
      /feeds\[0\] "f": space: unknown space ref "nope"/,
    );
    expect(refuse({ comments: [{ ref: 'c', user: 'anna', feed: 'nope', message: 'm' }] })).toThrow(
      /comments\[0\] "c": feed: unknown feed ref/,
    );
    expect(
      refuse({ users: [user('ann'), { ...user('ann'), login: 'ann2', email: 'b@example.com' }] }),
    ).toThrow(/users\[1\] "ann": duplicate ref/);
    expect(refuse({ users: [user('ann'), { ...user('bob'), login: 'ann' }] })).toThrow(
      /login "ann" is also used/,
    );
    expect(
      refuse({
        topics: [
          { ref: 'child', title: 'C', parent: 'root' },
          { ref: 'root', title: 'R' },
        ],
      }),
    ).toThrow(/must be listed before/);
    expect(refuse({ feeds: [{ user: 'Not A Login!', message: 'm' }] })).toThrow(
      /unknown user "Not A Login!"/,
    );
  });

  it('collects logins of existing users that the file references', () => {
    const refs = resolveReferences(
      parseImportFile({
        users: [user('ann')],
        feeds: [
          { user: 'ann', message: 'm' },
          { user: 'Bob', message: 'm' },
        ],
      }),
    );
    expect([...refs.externalLogins.keys()]).toEqual(['bob']);
  });

  it('builds every count from the file, each with the item it counts', () => {
    const file = parseImportFile({
      users: [user('ann')],
      spaces: [{ ref: 's', title: 'S', slug: 's', members: [{ user: 'ann' }] }],
      topics: [{ ref: 't', title: 'T' }],
      feeds: [
        { ref: 'f', user: 'ann', space: 's', message: 'm', topics: ['t'] },
        { user: 'ann', space: 's', message: 'draft', status: 'draft' },
      ],
      comments: [{ ref: 'c', user: 'ann', feed: 'f', message: 'hi' }],
      notifications: [{ user: 'ann', type: 'mention' }],
    });
    resolveReferences(file);
    expect(sequenceCounts(file)).toEqual({
      user: 1,
      space: 1,
      topic: 1,
      post: 2,
      comment: 1,
      notification: 1,
    });
    const { plan, output } = buildImportPlan(file, {
      firstIds: { user: 10, space: 20, topic: 30, post: 40, comment: 50, notification: 60 },
      externalUserIds: new Map(),
      builders: builtWith(file, { topics: { nextSerial: 4 } }),
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(output).toMatchObject({
      users: { ann: { id: 10, username: 'ann' } },
      spaces: { s: 20 },
      topics: { t: 30 },
      feeds: { f: 40 },
      comments: { c: 50 },
      notifications: [60],
    });
    // Guards first: a login or slug taken meanwhile aborts before any entity is written.
    expect(plan.guards.map((unit) => unit.label)).toEqual([
      'users[0] "ann": login "ann" or e-mail "ann@example.com"',
      'users[0] "ann": login "ann" or e-mail "ann@example.com"',
      'spaces[0] "s": slug "s"',
      'topics[0] "t": slug "t"',
    ]);

    const table = new MemoryTable();
    for (const batch of planBatches(plan)) table.apply(batch);
    expect(table.get('POST#40', 'POST')).toMatchObject({
      comments_count: 1,
      // A number set, so a topic delete detaches it with `DELETE topic_ids` (post-item.ts).
      topic_ids: new Set([30]),
      topic_signature: '30',
    });
    // The index keys are on the feed's listing entry, not on the post item.
    expect(table.get('POST#40', 'LISTING')).toMatchObject({ gsi2pk: 'SPACE#20#POSTS' });
    expect(table.get('POST#41', 'LISTING')).not.toHaveProperty('gsi2pk');
    expect(table.get('TOPIC#30', 'TOPIC')).toMatchObject({ serial: 4, slug: 't' });
    expect(table.get('TOPIC#30', 'TOPIC')).not.toHaveProperty('posts_count');
    // The topic's posts_count is its feed totals item (below) alone: the former shards are not written.
    expect([...table.items.keys()].filter((id) => /^TOPIC#30#S\d/.test(id))).toEqual([]);
    expect(table.get('TOPICS', 'STATS')).toMatchObject({ total: 1, 'status:active': 1 });
    expect(table.get('SPACE#20', 'STATS')).toMatchObject({ members_count: 1 });
    const spaceShard = shardKey(spacePostCounts(20), shardOf(spacePostCounts(20), 40));
    expect(table.get(spaceShard.pk, spaceShard.sk)).toMatchObject({ posts_count: 1 });
    expect(table.get('USER#10', 'STATS')).toMatchObject({
      entity: 'user_stats',
      feeds_published: 1,
      'feeds_published_space:20': 1,
      feeds_published_public: 1,
      comments_published: 1,
      'comments_published_space:20': 1,
    });
    expect(table.get('USER#10', 'NOTIFSTATS')).toMatchObject({ total: 1, unread: 1, 'unread:mention': 1 });
    // The timeline and topic totals of the feed lists move with the import as with the API.
    for (let replica = 0; replica < feedStats().replicas; replica++) {
      const timeline = shardKey(feedStats(), shardOf(feedStats(), 40), replica);
      expect(table.get(timeline.pk, timeline.sk)).toMatchObject({ public: 1 });
    }
    expect(table.get('TOPIC#30', 'FEEDSTATS')).toMatchObject({ '30|p20': 1, entity: 'topic_feed_stats' });
  });
});

describe('renderMarkdown', () => {
  it('escapes HTML, keeps paragraphs and links mentions', () => {
    expect(renderMarkdown('Hi @Bob <script>x</script>\n\nbye')).toBe(
      '<p>Hi <a href="/u/bob" class="mention" rel="nofollow ugc noopener">@Bob</a> &lt;script&gt;x&lt;/script&gt;</p>\n<p>bye</p>',
    );
    expect(renderMarkdown('mail ann@example.com')).toBe('<p>mail ann@example.com</p>');
  });
});
