import { beforeAll, describe, expect, it } from 'vitest';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { listFeeds as listFeedsUseCase } from '../../shared/domain/feeds/list-feeds.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { allFeeds, createSpace, type Feed, listFeeds, postFeed } from '../support/feeds.ts';

/**
 * GET /feeds?status=draft|pending|scheduled (decisions.md "Topics and feeds": a status other than `published`
 * "only for the author's own feeds or for moderators"): a community moderator or admin sees every member's feeds in
 * that status, a member only their own. The moderators' list totals every unpublished feed of the site, exact only
 * while nothing else writes feeds: this file runs in the `api-settings` project, alone.
 */

let author: TestUser;
let other: TestUser;
let moderator: TestUser;
let admin: TestUser;
let privateSpace: number;
let publicSpace: number;

beforeAll(async () => {
  [author, other, moderator, admin] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
    createTestUser({ communityRole: 'admin' }),
  ]);
  const members = [
    [author, 'member'],
    [other, 'member'],
  ] as const;
  [publicSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
  ]);
});

const ids = (feeds: readonly Feed[]) => feeds.map((feed) => feed.id);

describe('GET /feeds?status= for moderators (issue 21 item 15)', () => {
  it("lists every member's drafts, newest first, with the exact site total", async () => {
    const before = await allFeeds(moderator, { status: 'draft' });
    expect(before.total).toBe(before.feeds.length);
    // Sequential, so creation order is list order (newest first).
    const first = await postFeed(author, { space_id: publicSpace, status: 'draft' });
    const second = await postFeed(other, { space_id: privateSpace, status: 'draft' });
    const third = await postFeed(moderator, { status: 'draft' });

    for (const caller of [moderator, admin]) {
      const page = (await listFeeds(caller, { status: 'draft', per_page: 3 })).body.feeds;
      expect(page.total).toBe(before.total + 3);
      expect(ids(page.data)).toEqual([third.id, second.id, first.id]);
      expect(page.data.every((feed) => feed.status === 'draft')).toBe(true);
    }
    const after = await allFeeds(moderator, { status: 'draft' });
    expect(after.total).toBe(after.feeds.length);
    expect(new Set(ids(after.feeds)).size).toBe(after.total);
    // Paging through the merged shards: the second page of one starts where the first ended.
    const secondPage = (await listFeeds(moderator, { status: 'draft', per_page: 1, page: 2 })).body.feeds;
    expect(ids(secondPage.data)).toEqual([second.id]);
  });

  it('lists pending and scheduled feeds apart, and follows status changes and deletes', async () => {
    const [pendingBefore, scheduledBefore] = await Promise.all([
      allFeeds(moderator, { status: 'pending' }),
      allFeeds(moderator, { status: 'scheduled' }),
    ]);
    const pending = await postFeed(author, { space_id: publicSpace, status: 'pending' });
    const scheduled = await postFeed(other, { space_id: publicSpace, status: 'scheduled' });
    let pendingPage = (await listFeeds(moderator, { status: 'pending' })).body.feeds;
    expect(pendingPage.total).toBe(pendingBefore.total + 1);
    expect(pendingPage.data[0]?.id).toBe(pending.id);
    const scheduledPage = (await listFeeds(moderator, { status: 'scheduled' })).body.feeds;
    expect(scheduledPage.total).toBe(scheduledBefore.total + 1);
    expect(scheduledPage.data[0]?.id).toBe(scheduled.id);

    // Published, it leaves the pending list (and its count); deleted, the scheduled one leaves its list.
    const publish = await api('PUT', `/feeds/${pending.id}`, { as: author, body: { status: 'published' } });
    expect(publish.status, publish.text).toBe(200);
    const remove = await api('DELETE', `/feeds/${scheduled.id}`, { as: other });
    expect(remove.status, remove.text).toBe(200);
    pendingPage = (await listFeeds(moderator, { status: 'pending' })).body.feeds;
    expect(pendingPage.total).toBe(pendingBefore.total);
    expect(ids(pendingPage.data)).not.toContain(pending.id);
    const scheduledAfter = await allFeeds(moderator, { status: 'scheduled' });
    expect(scheduledAfter.total).toBe(scheduledBefore.total);
    expect(ids(scheduledAfter.feeds)).not.toContain(scheduled.id);
  });

  it('shows a member only their own unpublished feeds', async () => {
    const own = await postFeed(other, { space_id: publicSpace, status: 'draft' });
    const mine = await allFeeds(other, { status: 'draft' });
    expect(mine.feeds.every((feed) => feed.user_id === other.id)).toBe(true);
    expect(ids(mine.feeds)).toContain(own.id);
    expect(mine.total).toBe(mine.feeds.length);
  });
});

describe('GET /feeds?status= cost for moderators (issue 21 item 15)', () => {
  /** Read units of page 1 (10 feeds) of the moderators' draft list, by the use case in this process. */
  async function pageOneUnits(): Promise<{ units: number; total: number }> {
    const caller: Caller = {
      id: moderator.id,
      username: moderator.username,
      hostRole: 'member',
      communityRoles: ['moderator'],
      status: 'active',
    };
    readMeter.reset();
    const { feeds } = await listFeedsUseCase(caller, { page: 1, per_page: 10, status: 'draft' });
    expect(feeds.data).toHaveLength(10);
    return { units: readMeter.total(), total: feeds.total };
  }

  const importDrafts = (count: number) =>
    runImport({
      feeds: Array.from({ length: count }, (_, i) => ({
        user: author.username,
        space: null,
        message: `imported draft ${i}`,
        status: 'draft' as const,
      })),
    });

  it('reads the same for page 1 whatever the number of drafts on the site', async () => {
    await importDrafts(40);
    const before = await pageOneUnits();
    await importDrafts(400);
    const after = await pageOneUnits();
    expect(after.total).toBe(before.total + 400);
    expect(after.units).toBeLessThanOrEqual(before.units);
  });
});
