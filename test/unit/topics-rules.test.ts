import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import {
  generatedSlugBase,
  SLUG_MAX_LENGTH,
  slugCandidate,
  slugify,
} from '../../shared/domain/topics/slug.ts';
import { checkNewParent, MAX_TOPIC_ANCESTORS } from '../../shared/domain/topics/topic-hierarchy.ts';
import {
  nextUpdatedAt,
  type TopicItem,
  topicCountName,
  topicStatsDeltas,
} from '../../shared/domain/topics/topic-item.ts';
import {
  searchEntryActions,
  storedTopicSearchEntries,
  trigramsOf,
} from '../../shared/domain/topics/topic-search-entries.ts';

/** The pure topic rules: slugs (decisions.md "Topics and feeds"), the hierarchy, the stats counter names. */

describe('slugify', () => {
  it.each([
    ['News', 'news'],
    ['  Product   Updates  ', 'product-updates'],
    ['Crème Brûlée & Café', 'creme-brulee-cafe'],
    ['Ünïcödé — Ärger', 'unicode-arger'],
    ['C++/C# tips!!', 'c-c-tips'],
    ['---already-slugged---', 'already-slugged'],
    ['UPPER_case_and_snake', 'upper-case-and-snake'],
    ['日本語', ''],
    ['!!!', ''],
    ['ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
  ])('%j → %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('cuts at 100 characters without leaving a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
    expect(slugify('x'.repeat(250))).toHaveLength(SLUG_MAX_LENGTH);
  });
});

describe('generated slug candidates', () => {
  it('falls back to "topic" for a title without a letter or digit', () => {
    expect(generatedSlugBase('!!!')).toBe('topic');
    expect(generatedSlugBase('Hello World')).toBe('hello-world');
  });

  it('is the base first, then -2, -3, …', () => {
    expect([1, 2, 3, 10].map((n) => slugCandidate('news', n))).toEqual([
      'news',
      'news-2',
      'news-3',
      'news-10',
    ]);
  });

  it('shortens a long base so the suffixed slug still fits in 100 characters', () => {
    const base = 'a'.repeat(100);
    expect(slugCandidate(base, 2)).toBe(`${'a'.repeat(98)}-2`);
    expect(slugCandidate(base, 123)).toBe(`${'a'.repeat(96)}-123`);
    for (const n of [2, 99, 1000]) expect(slugCandidate(base, n).length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
  });

  it('never leaves a double dash where the base was cut', () => {
    const base = `${'a'.repeat(97)}-bc`;
    expect(slugCandidate(base, 2)).toBe(`${'a'.repeat(97)}-2`);
  });
});

describe('checkNewParent (cycle detection)', () => {
  // 1 ─ 2 ─ 3 ─ 4, and 5 alone; 6 → 7 is a chain as long as the walk allows.
  const tree = new Map<number, number | null>([
    [1, null],
    [2, 1],
    [3, 2],
    [4, 3],
    [5, null],
  ]);
  const lookups: number[] = [];
  const parentOf = async (id: number) => {
    lookups.push(id);
    return tree.has(id) ? tree.get(id) : undefined;
  };

  it('accepts a parent outside the topic’s subtree', async () => {
    expect(await checkNewParent(5, 4, parentOf)).toEqual({ ok: true });
    expect(await checkNewParent(4, 5, parentOf)).toEqual({ ok: true });
    expect(await checkNewParent(3, 1, parentOf)).toEqual({ ok: true });
  });

  it('refuses the topic itself as its parent', async () => {
    lookups.length = 0;
    expect(await checkNewParent(2, 2, parentOf)).toEqual({ ok: false, reason: 'cycle' });
    expect(lookups).toEqual([]);
  });

  it('refuses a child or any deeper descendant as the parent', async () => {
    expect(await checkNewParent(3, 4, parentOf)).toEqual({ ok: false, reason: 'cycle' });
    expect(await checkNewParent(1, 4, parentOf)).toEqual({ ok: false, reason: 'cycle' });
    expect(await checkNewParent(1, 2, parentOf)).toEqual({ ok: false, reason: 'cycle' });
  });

  it('refuses an unknown parent', async () => {
    expect(await checkNewParent(1, 99, parentOf)).toEqual({ ok: false, reason: 'unknown_parent' });
  });

  it('walks only the new parent’s ancestors, never the subtree', async () => {
    lookups.length = 0;
    await checkNewParent(5, 4, parentOf);
    expect(lookups).toEqual([4, 3, 2, 1]);
  });

  it('refuses a chain longer than the bound instead of walking it', async () => {
    const deep = new Map<number, number | null>();
    const length = MAX_TOPIC_ANCESTORS + 5;
    for (let id = 1; id <= length; id++) deep.set(id, id === 1 ? null : id - 1);
    const lookup = async (id: number) => (deep.has(id) ? deep.get(id) : undefined);
    expect(await checkNewParent(1000, length, lookup)).toEqual({ ok: false, reason: 'too_deep' });
    expect(await checkNewParent(1000, MAX_TOPIC_ANCESTORS - 1, lookup)).toEqual({ ok: true });
  });
});

describe('topic stats counters', () => {
  it('names one counter per list', () => {
    expect(topicCountName({})).toBe('total');
    expect(topicCountName({ status: 'inactive' })).toBe('status:inactive');
    expect(topicCountName({ parentId: 7 })).toBe('parent:7');
    expect(topicCountName({ parentId: null })).toBe('parent:0');
    expect(topicCountName({ parentId: 0, status: 'active' })).toBe('parent:0:status:active');
  });

  it('counts a topic in the four lists it belongs to', () => {
    expect(topicStatsDeltas({ status: 'active', parent_id: 9 })).toEqual({
      total: 1,
      'status:active': 1,
      'parent:9': 1,
      'parent:9:status:active': 1,
    });
  });
});

describe('nextUpdatedAt', () => {
  it('is always later than the state it replaces, even within one millisecond', () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    const next = nextUpdatedAt(future);
    expect(Date.parse(next)).toBe(Date.parse(future) + 1);
    const past = '2020-01-01T00:00:00.000Z';
    expect(Date.parse(nextUpdatedAt(past))).toBeGreaterThan(Date.parse(past) + 1000);
  });
});

describe('title search entries (issue 21, item 18)', () => {
  // The actions name the table; nothing is sent.
  const saved = { ...process.env };
  beforeAll(() => {
    Object.assign(process.env, { TABLE_NAME: 'unit-test-table' });
    resetEnvCache();
  });
  afterAll(() => {
    process.env = { ...saved };
    resetEnvCache();
  });
  const topic = (title: string, overrides: Partial<TopicItem> = {}): TopicItem => ({
    id: 7,
    title,
    title_lc: title.toLowerCase(),
    slug: 'x',
    description: '',
    color: '',
    icon: '',
    parent_id: null,
    status: 'active',
    serial: 3,
    posts_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
  /** Every trigram partition the entries list the topic in. */
  const partitions = (entries: Array<Record<string, unknown>>) =>
    entries.flatMap((entry) => ['gsi1pk', 'gsi2pk', 'gsi3pk'].flatMap((key) => (entry[key] as string) ?? []));

  it('lists the topic under each distinct trigram of its lower-cased title once, by code point', () => {
    expect(trigramsOf('abcabc')).toEqual(['abc', 'bca', 'cab']);
    expect(trigramsOf('ab')).toEqual([]);
    expect(trigramsOf('a😀bc')).toEqual(['a😀b', '😀bc']);
    const entries = storedTopicSearchEntries(topic('Ab Cd'));
    expect(partitions(entries).sort()).toEqual(['TOPICGRAM#ab ', 'TOPICGRAM#b c', 'TOPICGRAM# cd'].sort());
    expect(entries[0]).toMatchObject({ topic_id: 7, title_lc: 'ab cd', status: 'active', parent_key: 0 });
  });

  it('fits any title of 192 characters in one transaction: at most 64 entries, 69 actions for a rename', () => {
    const distinct = Array.from({ length: 192 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const long = storedTopicSearchEntries(topic(distinct));
    expect(long).toHaveLength(64);
    expect(searchEntryActions(topic(distinct), topic('xyz'))).toHaveLength(64);
    expect(searchEntryActions(topic(distinct), topic(distinct, { status: 'inactive' }))).toHaveLength(64);
  });

  it('moves only when what a search sees changes, and deletes the slots a shorter title no longer needs', () => {
    expect(searchEntryActions(topic('Hello world'), topic('Hello world', { description: 'x' }))).toEqual([]);
    const actions = searchEntryActions(topic('Hello world'), topic('Hey'));
    expect(actions.filter((action) => action.Put)).toHaveLength(1);
    expect(actions.filter((action) => action.Delete)).toHaveLength(2);
    expect(searchEntryActions(topic('Hello world'), undefined).every((action) => action.Delete)).toBe(true);
  });
});
