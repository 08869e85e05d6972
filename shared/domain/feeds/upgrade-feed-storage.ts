import { everyUserId } from '../users/index.ts';
import { type ListingUpgradeReport, upgradeAuthorFeeds } from './feed-listing-upgrade.ts';
import { FeedTotalsTally, type TotalsReport } from './feed-totals-recount.ts';

const MEMBERS_AT_ONCE = 8;

export interface FeedStorageReport {
  feed_listings: ListingUpgradeReport;
  timeline_totals: TotalsReport;
  status_totals: TotalsReport;
  space_post_counts: TotalsReport;
}

/**
 * The feeds' part of the operator's `storage:upgrade`: every member's feeds brought to the listing-entry layout
 * (`upgradeAuthorFeeds`), then the totals recounted from the feeds read on the way (`FeedTotalsTally`). Member by
 * member (the users domain's `everyUserId`), a page of feeds at a time: no Scan, and nothing held per feed.
 * Idempotent and resumable: every step writes only what differs from the current layout, so a run stopped midway
 * is finished by the next, and a run after a complete one writes nothing.
 */
export async function upgradeFeedStorage(options: { dryRun: boolean }): Promise<FeedStorageReport> {
  const tally = new FeedTotalsTally();
  await tally.start();
  const listings = { examined: 0, upgraded: 0, changed_meanwhile: 0 };
  for await (const userIds of everyUserId()) {
    // A few members at a time: each member's feeds are their own partitions, and the tally only adds.
    for (let start = 0; start < userIds.length; start += MEMBERS_AT_ONCE) {
      const members = userIds.slice(start, start + MEMBERS_AT_ONCE);
      await Promise.all(members.map((userId) => upgradeAuthorFeeds(userId, tally, listings, options)));
    }
  }
  return { feed_listings: listings, ...(await tally.write(options)) };
}
