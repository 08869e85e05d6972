import { noRead, readTogether } from '../../db/read-together.ts';
import { forbidden } from '../../errors/app-error.ts';
import { type Caller, canManageFeed } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { spaceRead } from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { checkPostTopics, topicsByIdsRead, topicsConfigRead } from '../topics/index.ts';
import { userRead } from '../users/index.ts';
import { existingFeed, feedAccess, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';
import { type FeedResponse, toFeedResponse } from './feed-mapper.ts';
import { likedPostsRead, writeFeedActions } from './feed-repository.ts';
import { feedUpdateActions } from './feed-writes.ts';
import type { FeedStatus, PostItem } from './post-item.ts';

/** The body of `PUT /feeds/{id}`: every field optional; `topics` replaces the assignment. */
export interface UpdateFeedInput {
  readonly title?: string | undefined;
  readonly message?: string | undefined;
  readonly topics?: readonly number[] | undefined;
  readonly status?: FeedStatus | undefined;
  readonly media?: readonly { type: string; url: string }[] | undefined;
}

/** A concurrent write changed the feed between the read and the write this many times in a row: give up. */
const MAX_ATTEMPTS = 5;

/**
 * `PUT /feeds/{id}`: the author, a moderator of its space or a community moderator (else 403 `rest_forbidden`; a
 * feed the caller cannot see is 404 `not_found`). Given `topics` replace the assignment and pass the topic rules
 * exactly as on create (400 naming `topics`). A feed stays in its space. One transaction moves the feed, its
 * topic links and every count by the difference between the old and the new state (status included); it is
 * conditioned on the state read, and a concurrent change (a comment does not count, an edit or a topic delete
 * does) re-reads and re-applies the request. Three rounds: the feed (consistent); then in one BatchGetItem the
 * membership, the topics old and new, the author and the caller's like for the answer, and when `topics` is given
 * the configuration and the space; then the write.
 */
export async function updateFeed(
  caller: Caller,
  feedId: number,
  input: UpdateFeedInput,
): Promise<{ message: string; feed: FeedResponse }> {
  for (let attempt = 1; ; attempt++) {
    const [found] = await readTogether([feedRead(feedId, { consistent: true })]);
    const feed = existingFeed(found);
    const given = input.topics ?? feed.topic_ids;
    const checking = input.topics !== undefined;
    const [membership, topics, author, liked, config, space] = await readTogether([
      feedMembershipRead(caller, feed),
      topicsByIdsRead([...feed.topic_ids, ...given]),
      userRead(feed.user_id),
      likedPostsRead([feed.id], caller.id),
      checking ? topicsConfigRead() : noRead(undefined),
      checking && feed.space_id !== null ? spaceRead(feed.space_id) : noRead(undefined),
    ]);
    const { post } = visibleFeed(caller, feed, membership);
    if (!canManageFeed(caller, feedAccess(post), membership)) {
      throw forbidden('Sorry, you are not allowed to edit this feed.');
    }
    const topicIds = config
      ? checkPostTopics(given, {
          config,
          spaceRequiresTopic: space?.settings.topic_required === 'yes',
          found: topics,
        })
      : post.topic_ids;
    const updated: PostItem = {
      ...post,
      title: input.title ?? post.title,
      message: input.message ?? post.message,
      message_rendered: input.message === undefined ? post.message_rendered : renderMarkdown(input.message),
      status: input.status ?? post.status,
      media: input.media === undefined ? post.media : input.media.map(({ type, url }) => ({ type, url })),
      topic_ids: topicIds,
      updated_at: laterThan(post.updated_at),
    };
    const existing = new Set(topics.map((topic) => topic.id));
    const outcome = await writeFeedActions(feedUpdateActions(post, updated, existing));
    if (outcome.written) {
      const feedResponse = toFeedResponse(updated, {
        authors: author ? new Map([[author.id, author]]) : new Map(),
        topics: new Map(topics.map((topic) => [topic.id, topic])),
        liked,
      });
      return { message: 'Feed has been updated.', feed: feedResponse };
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Feed ${feedId} kept changing during an update`);
  }
}

/** A timestamp after `previous`, so the optimistic condition on `updated_at` tells every write apart. */
function laterThan(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}
