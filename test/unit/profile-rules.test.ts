import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { commentCounts, commentPoints, type PostItem } from '../../shared/domain/feeds/index.ts';
import { buildImportPlan } from '../../shared/domain/import/build-import-plan.ts';
import { planBatches } from '../../shared/domain/import/plan-batches.ts';
import { resolveReferences } from '../../shared/domain/import/resolve-references.ts';
import { parseImportFile } from '../../shared/domain/import/run-import.ts';
import { feedAggregates } from '../../shared/domain/feeds/feed-aggregates.ts';
import { compilationScore } from '../../shared/domain/profiles/index.ts';
import { isProfileUrl } from '../../shared/domain/profiles/update-profile.ts';
import { buildUserItem } from '../../shared/domain/users/index.ts';
import { MemoryTable } from '../support/import-batches.ts';
import { builtWith } from '../support/import-builders.ts';

/** Profile rules without I/O: the scores, profile URLs, comment counters by visibility, the `media` import section. */

describe('profile scores', () => {
  it('total_points: 5 per published feed and 2 per published comment on a feed, on the user item', () => {
    const post = {
      id: 1,
      user_id: 9,
      space_id: null,
      space_visibility: 'public',
      type: 'text',
      status: 'published',
      topic_ids: [],
    } as unknown as PostItem;
    const points = feedAggregates(post).find((aggregate) => aggregate.kind === 'points');
    expect(points).toMatchObject({ key: { pk: 'USER#9', sk: 'USER' }, deltas: { total_points: 5 } });
    expect(feedAggregates({ ...post, status: 'draft' }).some((a) => a.kind === 'points')).toBe(false);
    expect(commentPoints({ status: 'published', course_id: null })).toBe(2);
    expect(commentPoints({ status: 'published', course_id: 4 })).toBe(0);
    expect(commentPoints({ status: 'pending', course_id: null })).toBe(0);
  });

  it('compilation_score: 10 per completed part of the profile', () => {
    const user = buildUserItem(1, { login: 'ann', email: 'ann@example.com' }, 'ann', 'ann@example.com');
    expect(compilationScore(user)).toBe(0);
    expect(
      compilationScore({
        ...user,
        display_name: 'Ann',
        first_name: 'A',
        last_name: 'N',
        short_description: 'bio',
        avatar: 'https://x/a.png',
        cover_photo: 'https://x/c.png',
        website: 'https://x',
        location: 'L',
        social_links: { github: 'https://github.com/ann' },
        is_verified: 1,
      }),
    ).toBe(100);
  });
});

describe('profile URLs', () => {
  it('accepts absolute http(s) URLs and empty; refuses the rest', () => {
    for (const good of ['', 'http://example.com', 'https://example.com/a?b=c'])
      expect(isProfileUrl(good)).toBe(true);
    for (const bad of [
      'example.com',
      'javascript:alert(1)',
      'ftp://x',
      'https://',
      'https://a b.com',
      'http:/x',
    ]) {
      expect(isProfileUrl(bad), bad).toBe(false);
    }
  });
});

describe('comment counters', () => {
  const comment = { status: 'published', space_id: 7, course_id: null } as const;
  it('count feed comments by who may see them; lesson comments and unpublished ones are not', () => {
    expect(commentCounts({ ...comment, space_visibility: 'public' })).toEqual({
      comments_published: 1,
      'comments_published_space:7': 1,
      comments_published_public: 1,
    });
    expect(commentCounts({ ...comment, space_visibility: 'members' })).toMatchObject({
      'comments_published_members:7': 1,
    });
    expect(commentCounts({ ...comment, space_visibility: 'members', course_id: 3 })).not.toHaveProperty(
      'comments_published_members:7',
    );
    expect(commentCounts({ ...comment, space_visibility: 'public', status: 'pending' })).toEqual({});
  });
});

describe('the media import section', () => {
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'unit-test-table';
    resetEnvCache();
  });

  it('stores active media in the uploader’s partitions and counts them on the uploader’s stats', () => {
    const file = parseImportFile({
      users: [{ ref: 'ann', login: 'ann', email: 'ann@example.com' }],
      feeds: [{ ref: 'f', user: 'ann', message: 'm' }],
      media: [
        {
          ref: 'm1',
          user: 'ann',
          file_name: 'a.png',
          file_type: 'image/png',
          file_size: 5,
          object_source: 'feed',
          object_id: 'f',
        },
        { user: 'ann', file_name: 'b.pdf', file_type: 'application/pdf', file_size: 7 },
      ],
    });
    resolveReferences(file);
    const { plan, output } = buildImportPlan(file, {
      firstIds: { user: 10, post: 40, media: 70 },
      externalUserIds: new Map(),
      builders: builtWith(file),
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(output).toMatchObject({ media: { m1: 70 } });
    const table = new MemoryTable();
    for (const batch of planBatches(plan)) table.apply(batch);
    expect(table.get('MEDIA#70', 'MEDIA')).toMatchObject({
      status: 'active',
      object_source: 'feed',
      object_id: 40,
      gsi1pk: 'USER#10#MEDIA',
      gsi2pk: 'USER#10#MEDIA#SOURCE#feed',
      gsi3pk: 'USER#10#MEDIA#TYPE#image/png',
    });
    expect(table.get('MEDIA#71', 'MEDIA')).not.toHaveProperty('gsi2pk');
    expect(table.get('USER#10', 'STATS')).toMatchObject({
      media_total: 2,
      'media_type:image/png': 1,
      'media_type:application/pdf': 1,
      'media_source:feed': 1,
    });
  });

  it('refuses an object_id ref without an object_source, and unknown refs', () => {
    const refuse = (media: unknown) => () =>
      resolveReferences(
        parseImportFile({
          users: [{ ref: 'ann', login: 'ann', email: 'ann@example.com' }],
          media: [media],
        }),
      );
    const base = { user: 'ann', file_name: 'a.png', file_type: 'image/png', file_size: 5 };
    expect(refuse({ ...base, object_id: 'f' })).toThrow(/object_source/);
    expect(refuse({ ...base, object_source: 'feed', object_id: 'nope' })).toThrow(/nope/);
  });
});
