import { newId } from '../../db/ids.ts';
import { noRead, readTogether } from '../../db/read-together.ts';
import { forbidden, invalidParams } from '../../errors/app-error.ts';
import { type Caller, canPostInSpace, isSpaceMember } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { GENERAL_SETTINGS_DEFAULTS, settingsRead } from '../settings/index.ts';
import {
  type MembershipItem,
  membershipRead,
  type SpaceItem,
  spaceRead,
  spaceVisibility,
} from '../spaces/index.ts';
import { renderMessage } from '../text/index.ts';
import { checkPostTopics, slugify, topicsByIdsRead, topicsConfigRead } from '../topics/index.ts';
import { userRead } from '../users/index.ts';
import { feedSpace } from './feed-access.ts';
import { missingParam, spaceNotFound } from './feed-errors.ts';
import { type FeedResponse, toFeedResponse } from './feed-mapper.ts';
import { notifyFeedMentions } from './feed-notifications.ts';
import { writeFeedActions } from './feed-repository.ts';
import { feedCreationActions } from './feed-writes.ts';
import type { FeedStatus, PostItem } from './post-item.ts';

/** The body of `POST /feeds` as the contract delivers it (defaults applied there). */
export interface CreateFeedInput {
  readonly title: string;
  readonly message: string;
  readonly space_id?: number | null | undefined;
  readonly topics: readonly number[];
  readonly status: FeedStatus;
  readonly media: readonly { type: string; url: string }[];
}

/**
 * `POST /feeds` (decisions.md "Topics and feeds"). In order: `space_id` is required while the general setting
 * `disable_global_posts` is `yes` (400 `rest_missing_callback_param`); the space must exist and be a community
 * space (404 `not_found`; a secret space the caller is not in answers the same, so its existence does not leak);
 * the caller must be allowed to post there (active member; in a `restricted_post_only` space its admins and
 * moderators) else 403 `rest_forbidden`; the topics must pass the configuration (400 `rest_invalid_param` naming
 * `topics`). Then one transaction writes the feed, its topic links and every count; a topic deleted meanwhile
 * cancels it (400 naming `topics`). Mentions in a published feed notify the mentioned users who can see it.
 * Everything the checks and the answer need is read in one BatchGetItem (strongly consistent, as the settings
 * copies are read): settings, topics configuration, topics, author, space and membership.
 */
export async function createFeed(
  caller: Caller,
  input: CreateFeedInput,
): Promise<{ message: string; feed: FeedResponse }> {
  const spaceId = input.space_id ?? null;
  const [general, config, found, author, space, membership] = await readTogether([
    settingsRead('general', GENERAL_SETTINGS_DEFAULTS),
    topicsConfigRead(),
    topicsByIdsRead(input.topics),
    userRead(caller.id),
    spaceId === null ? noRead(undefined) : spaceRead(spaceId),
    spaceId === null ? noRead(undefined) : membershipRead(spaceId, caller.id),
  ]);
  if (spaceId === null && general.disable_global_posts === 'yes') throw missingParam('space_id');
  if (spaceId !== null) assertCanPost(caller, space, membership);

  const topicIds = checkPostTopics(input.topics, {
    config,
    spaceRequiresTopic: space?.settings.topic_required === 'yes',
    found,
  });

  const id = newId();
  const now = nowIso();
  const { html, mentions } = renderMessage(input.message);
  const post: PostItem = {
    id,
    user_id: caller.id,
    space_id: spaceId,
    space_visibility: spaceVisibility(space?.privacy ?? null),
    title: input.title,
    slug: slugify(input.title || input.message.slice(0, 80)) || `feed-${id}`,
    message: input.message,
    message_rendered: html,
    type: 'text',
    status: input.status,
    topic_ids: topicIds,
    comments_count: 0,
    reactions_count: 0,
    media: input.media.map((item) => ({ type: item.type, url: item.url })),
    created_at: now,
    updated_at: now,
  };
  const outcome = await writeFeedActions(feedCreationActions(post));
  // Only a topic action can fail: the post id is new. A topic deleted since it was read refuses the count.
  if (!outcome.written) throw invalidParams({ topics: 'a topic was deleted meanwhile' });

  await notifyFeedMentions({ caller, user: author }, post, mentions);
  const byId = new Map(found.map((topic) => [topic.id, topic]));
  return {
    message: post.status === 'published' ? 'Feed has been published.' : 'Feed has been saved.',
    feed: toFeedResponse(post, {
      authors: author ? new Map([[author.id, author]]) : new Map(),
      topics: byId,
      liked: new Set(),
    }),
  };
}

function assertCanPost(
  caller: Caller,
  space: SpaceItem | undefined,
  membership: MembershipItem | undefined,
): asserts space is SpaceItem {
  if (space?.type !== 'community') throw spaceNotFound();
  if (space.privacy === 'secret' && !isSpaceMember(caller, membership)) throw spaceNotFound();
  if (!canPostInSpace(caller, feedSpace(space), membership)) {
    throw forbidden('Sorry, you are not allowed to post in this space.');
  }
}
