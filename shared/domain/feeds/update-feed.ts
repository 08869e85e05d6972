import { forbidden } from '../../errors/app-error.ts';
import { type Caller, canManageFeed } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { findSpaceById } from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { checkPostTopics, findTopicsByIds, getTopicsConfig, type TopicItem } from '../topics/index.ts';
import { findUserById } from '../users/index.ts';
import { feedAccess, loadVisibleFeed } from './feed-access.ts';
import { type FeedResponse, toFeedResponse } from './feed-mapper.ts';
import { findLikedPostIds, writeFeedActions } from './feed-repository.ts';
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
 * does) re-reads and re-applies the request.
 */
export async function updateFeed(
  caller: Caller,
  feedId: number,
  input: UpdateFeedInput,
): Promise<{ message: string; feed: FeedResponse }> {
  for (let attempt = 1; ; attempt++) {
    const { post, membership } = await loadVisibleFeed(caller, feedId, { consistent: true });
    if (!canManageFeed(caller, feedAccess(post), membership)) {
      throw forbidden('Sorry, you are not allowed to edit this feed.');
    }
    const topicIds = input.topics === undefined ? post.topic_ids : await checkedTopics(post, input.topics);
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
    const topics = await findTopicsByIds([...new Set([...post.topic_ids, ...topicIds])]);
    const existing = new Set(topics.map((topic) => topic.id));
    const outcome = await writeFeedActions(feedUpdateActions(post, updated, existing));
    if (outcome.written)
      return { message: 'Feed has been updated.', feed: await respond(caller, updated, topics) };
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Feed ${feedId} kept changing during an update`);
  }
}

async function checkedTopics(post: PostItem, topics: readonly number[]): Promise<number[]> {
  const [config, found, space] = await Promise.all([
    getTopicsConfig(),
    findTopicsByIds([...new Set(topics)]),
    post.space_id === null ? undefined : findSpaceById(post.space_id),
  ]);
  return checkPostTopics(topics, {
    config,
    spaceRequiresTopic: space?.settings.topic_required === 'yes',
    found,
  });
}

/** A timestamp after `previous`, so the optimistic condition on `updated_at` tells every write apart. */
function laterThan(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}

async function respond(caller: Caller, post: PostItem, topics: TopicItem[]): Promise<FeedResponse> {
  const [author, liked] = await Promise.all([
    findUserById(post.user_id),
    findLikedPostIds([post.id], caller.id),
  ]);
  return toFeedResponse(post, {
    authors: author ? new Map([[author.id, author]]) : new Map(),
    topics: new Map(topics.map((topic) => [topic.id, topic])),
    liked,
  });
}
