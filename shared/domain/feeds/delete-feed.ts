import { forbidden } from '../../errors/app-error.ts';
import { type Caller, canManageFeed } from '../auth/index.ts';
import { findTopicsByIds } from '../topics/index.ts';
import { feedAccess, loadVisibleFeed } from './feed-access.ts';
import { writeFeedActions } from './feed-repository.ts';
import { feedDeletionActions } from './feed-writes.ts';
import { sweepFeedChildren } from './sweep-feed-children.ts';

const MAX_ATTEMPTS = 5;

/**
 * `DELETE /feeds/{id}`: the author, a moderator of its space or a community moderator (else 403 `rest_forbidden`;
 * a feed the caller cannot see is 404 `not_found`). One transaction deletes the feed and its topic links and takes
 * back everything it counted (topic `posts_count`, the space's `posts_count`, the author's feed counters, the
 * timeline and topic totals), on the condition that the feed is still the state read, counters included; a
 * concurrent edit, comment or like re-reads and retries. From then on no comment or like can be added (their
 * writes require the feed), and before the answer its comments (with their authors' counters) and every like on
 * it and on its comments are deleted too.
 */
export async function deleteFeed(caller: Caller, feedId: number): Promise<{ message: string }> {
  for (let attempt = 1; ; attempt++) {
    const { post, membership } = await loadVisibleFeed(caller, feedId, { consistent: true });
    if (!canManageFeed(caller, feedAccess(post), membership)) {
      throw forbidden('Sorry, you are not allowed to delete this feed.');
    }
    const topics = await findTopicsByIds(post.topic_ids);
    const outcome = await writeFeedActions(
      feedDeletionActions(post, new Set(topics.map((topic) => topic.id))),
    );
    if (outcome.written) {
      await sweepFeedChildren(post);
      return { message: 'Feed has been deleted.' };
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Feed ${feedId} kept changing during a delete`);
  }
}
