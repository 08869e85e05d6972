import { readTogether } from '../../db/read-together.ts';
import { forbidden } from '../../errors/app-error.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import { type Caller, canManageFeed } from '../auth/index.ts';
import { topicsByIdsRead } from '../topics/index.ts';
import { existingFeed, feedAccess, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { writeFeedActions } from './feed-repository.ts';
import { feedSweepMarkerAction, feedSweepMarkerRead } from './feed-sweep-repository.ts';
import { feedDeletionActions } from './feed-writes.ts';

const MAX_ATTEMPTS = 5;

/**
 * `DELETE /feeds/{id}`: the author, a moderator of its space or a community moderator (else 403 `rest_forbidden`;
 * a feed the caller cannot see is 404 `not_found`), in three rounds whatever the feed's size:
 *
 * 1. The feed and its sweep marker (one consistent BatchGetItem); then the membership and the feed's topics.
 * 2. One transaction deletes the feed and its topic links, takes back everything it counted (the space's
 *    `posts_count`, the author's feed counters, the timeline totals, its topics' feed totals and so their
 *    `posts_count`) and puts its sweep marker, on the condition that the feed is still the state read, counters
 *    included (a concurrent edit, comment or like re-reads and retries). From then on no comment or like can be
 *    added (their writes require the feed), and every read treats its comments as gone (they are reached only
 *    through the feed).
 * 3. A `feeds` message hands removing its likes and comments (with the likes on them and their authors'
 *    counters) to the worker (sweep-deleted-feed.ts), which removes the marker when done. Should that send fail,
 *    the client's retry finds no feed but the marker, sends it again and answers 404.
 */
export async function deleteFeed(caller: Caller, feedId: number): Promise<{ message: string }> {
  for (let attempt = 1; ; attempt++) {
    const [found, marker] = await readTogether([
      feedRead(feedId, { consistent: true }),
      feedSweepMarkerRead(feedId),
    ]);
    if (!found && marker) {
      await publish('feeds', { post_id: feedId, comments_left: marker.comments_count });
      throw feedNotFound();
    }
    const feed = existingFeed(found);
    const [membership, topics] = await readTogether([
      feedMembershipRead(caller, feed),
      topicsByIdsRead(feed.topic_ids),
    ]);
    const { post } = visibleFeed(caller, feed, membership);
    if (!canManageFeed(caller, feedAccess(post), membership)) {
      throw forbidden('Sorry, you are not allowed to delete this feed.');
    }
    const existing = new Set(topics.map((topic) => topic.id));
    const outcome = await writeFeedActions([
      ...feedDeletionActions(post, existing),
      feedSweepMarkerAction(post),
    ]);
    if (outcome.written) {
      await publish('feeds', { post_id: post.id, comments_left: post.comments_count });
      return { message: 'Feed has been deleted.' };
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Feed ${feedId} kept changing during a delete`);
  }
}
