import { postKey, postReactionKey } from '../../db/keys/feeds.ts';
import { membershipKey } from '../../db/keys/spaces.ts';
import { topicKey } from '../../db/keys/topics.ts';
import { userKey } from '../../db/keys/users.ts';
import type { ItemSchema } from '../../db/reads.ts';
import { getItems } from '../../db/reads.ts';
import { type Caller, canSeeFeed } from '../auth/index.ts';
import { type MembershipItem, MembershipItemSchema } from '../spaces/index.ts';
import { type TopicItem, TopicItemSchema } from '../topics/index.ts';
import { type UserItem, UserItemSchema } from '../users/index.ts';
import { feedAccess } from './feed-access.ts';
import { feedNotFound } from './feed-errors.ts';
import { type FeedResponse, toFeedResponse } from './feed-mapper.ts';
import { PostItemSchema } from './post-item.ts';
import { ReactionItemSchema } from './reaction-item.ts';

type Read = { readonly key: { pk: string; sk: string }; readonly schema: ItemSchema<unknown> };

/**
 * `GET /feeds/{id}`: one feed the caller may see (404 `not_found` otherwise, so a hidden feed and an unknown id
 * answer alike), with its topics resolved against the topics that exist and the caller's like. Two rounds of one
 * BatchGetItem each: the feed and the caller's like of it, strongly consistent (a single read reflects every write
 * completed before it); then what follows from the feed's ids: the caller's membership of its space (visibility),
 * its author and its topics.
 */
export async function getFeed(caller: Caller, feedId: number): Promise<{ feed: FeedResponse }> {
  const [post, like] = await getItems(
    [
      { key: postKey(feedId), schema: PostItemSchema },
      { key: postReactionKey(feedId, caller.id), schema: ReactionItemSchema },
    ],
    { consistent: true },
  );
  if (post?.type !== 'text') throw feedNotFound();
  const topicIds = [...new Set(post.topic_ids)];
  const reads: Read[] = [
    { key: userKey(post.user_id), schema: UserItemSchema },
    ...topicIds.map((topicId) => ({ key: topicKey(topicId), schema: TopicItemSchema })),
    ...(post.space_id === null
      ? []
      : [{ key: membershipKey(post.space_id, caller.id), schema: MembershipItemSchema }]),
  ];
  // Each answer was parsed by the schema asked for at its position.
  const found = (await getItems(reads)) as unknown[];
  const author = found[0] as UserItem | undefined;
  const topics = found.slice(1, 1 + topicIds.length) as (TopicItem | undefined)[];
  const membership = (post.space_id === null ? undefined : found[1 + topicIds.length]) as
    | MembershipItem
    | undefined;
  if (!canSeeFeed(caller, feedAccess(post), membership)) throw feedNotFound();
  const feed = toFeedResponse(post, {
    authors: new Map(author ? [[author.id, author]] : []),
    topics: new Map(topics.flatMap((topic) => (topic ? [[topic.id, topic]] : []))),
    liked: new Set(like ? [feedId] : []),
  });
  return { feed };
}
