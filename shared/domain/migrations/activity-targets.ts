import type { TransactAction } from '../../db/transact.ts';
import type { ActivityRow } from '../../integrations/buddypress/source.ts';
import { nowIso } from '../dates.ts';
import {
  type CommentItem,
  messageRewriteAction,
  newCommentWrites,
  newPostWrites,
  type PostItem,
} from '../feeds/index.ts';
import { type SpacePrivacy, spaceVisibility } from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { slugify } from '../topics/index.ts';
import { type ChunkInput, sourceHtmlToText } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';

/** Where a root activity lands: its feed's id and the space (null: the global feed) with its privacy. */
export interface FeedPlace {
  readonly postId: number;
  readonly spaceId: number | null;
  readonly privacy: SpacePrivacy | null;
}

/**
 * A new feed's put and the aggregates it moves (tallied): the same ones a feed posted through the API moves
 * (`feedAggregates`), so profiles, space and timeline totals stay exact. `commentsCount` is the number of this
 * chunk's comments under it (a feed's comments always come in its root's chunk).
 */
export function newPostEntries(
  context: ChunkInput,
  row: ActivityRow,
  place: FeedPlace,
  userId: number,
  commentsCount: number,
  options: { put: boolean; putListing?: boolean },
): ChunkEntry[] {
  const message = sourceHtmlToText(row.content);
  const createdAt = context.dateOf(row.dateRecorded);
  const post: PostItem = {
    id: place.postId,
    user_id: userId,
    space_id: place.spaceId,
    space_visibility: spaceVisibility(place.privacy),
    title: '',
    slug: slugify(message.slice(0, 60)) || `feed-${place.postId}`,
    message,
    message_rendered: renderMarkdown(message),
    type: 'text',
    status: 'published',
    topic_ids: [],
    comments_count: commentsCount,
    reactions_count: 0,
    media: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
  const writes = newPostWrites(post);
  return [
    ...(options.put ? [entry.put(writes.post)] : []),
    // The listing entry lists the feed (the post item carries no index keys); a retry puts whichever is missing.
    ...((options.putListing ?? options.put) ? [entry.put(writes.listing)] : []),
    ...writes.aggregates.map((aggregate) =>
      entry.counter(aggregate.key, aggregate.deltas, aggregate.identity),
    ),
  ];
}

/** A new comment's put and the aggregates and points it moves, as for a comment posted through the API. */
export function newCommentEntries(
  context: ChunkInput,
  row: ActivityRow,
  at: { place: FeedPlace; commentId: number; parentId: number | null; userId: number },
  options: { put: boolean },
): ChunkEntry[] {
  const message = sourceHtmlToText(row.content);
  const createdAt = context.dateOf(row.dateRecorded);
  const comment = {
    id: at.commentId,
    post_id: at.place.postId,
    parent_id: at.parentId,
    user_id: at.userId,
    space_id: at.place.spaceId,
    space_visibility: spaceVisibility(at.place.privacy),
    course_id: null,
    message,
    message_rendered: renderMarkdown(message),
    status: 'published',
    reactions_count: 0,
    created_at: createdAt,
    updated_at: createdAt,
  } satisfies CommentItem;
  // The feed's `comments_count` is in its put (a new feed) or moves on its own (an earlier run's feed).
  const writes = newCommentWrites(comment, { onFeed: false });
  return [
    ...(options.put ? [entry.put(writes.item)] : []),
    ...writes.aggregates.map((aggregate) =>
      entry.counter(aggregate.key, aggregate.deltas, aggregate.identity),
    ),
  ];
}

/** skip_existing off: an earlier run's feed or comment gets the source's text; counters and dates stay. */
export const contentUpdate = (kind: 'post' | 'comment', id: number, row: ActivityRow): TransactAction =>
  messageRewriteAction(kind, id, sourceHtmlToText(row.content), nowIso());
