import { newPostWrites, type PostItem } from '../../feeds/index.ts';
import { spaceVisibility } from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { slugify } from '../../topics/index.ts';
import { itemName } from '../import-error.ts';
import type { PlannedCount } from '../import-plan.ts';
import { ReferenceScope } from '../reference-scope.ts';
import { defineSection } from './section.ts';

/**
 * `feeds`: each feed with its topic links. Every feed moves the feed lists' aggregates as the API's writes do
 * (author, space, timeline, topic sets), in the same transaction: a published one counts on each of its topics'
 * feed totals item, whose counters sum to the topic's `posts_count`. `comments_count` starts at 0 and moves with each
 * published comment. Feeds take `post` ids after the lessons.
 */
export const feedsSection = defineSection({
  name: 'feeds',

  resolve(feeds, scope) {
    feeds.forEach((feed, i) => {
      const where = itemName('feeds', i, feed.ref);
      if (feed.ref !== undefined) scope.define('feed', feed.ref, i, where);
      scope.user(feed.user, `${where}: user`);
      if (feed.space !== null) scope.require('space', feed.space, `${where}: space`);
      feed.topics.forEach((topic, t) => {
        scope.require('topic', topic, `${where}: topics[${t}]`);
      });
      ReferenceScope.distinct(
        feed.topics,
        (topic) => topic,
        (_, t) => `${where}: topics[${t}]`,
        'topic',
      );
    });
  },

  ids: (feeds) => ({ post: feeds.length }),

  build(feeds, context) {
    const output: Record<string, number> = {};
    feeds.forEach((feed, i) => {
      const id = context.takeId('post');
      const createdAt = feed.created_at ?? context.now;
      const spaceId = feed.space === null ? null : context.idOf('space', feed.space);
      const space = spaceId === null ? undefined : context.spaces.get(spaceId);
      const topicIds = feed.topics.map((topic) => context.idOf('topic', topic));
      const userId = context.userId(feed.user);
      const post: PostItem = {
        id,
        user_id: userId,
        space_id: spaceId,
        space_visibility: spaceVisibility(space?.privacy ?? null),
        title: feed.title,
        slug: feed.slug ?? (slugify(feed.title || feed.message.slice(0, 80)) || `feed-${id}`),
        message: feed.message,
        message_rendered: renderMarkdown(feed.message),
        type: 'text',
        status: feed.status,
        topic_ids: topicIds,
        comments_count: 0,
        reactions_count: 0,
        media: [],
        created_at: createdAt,
        updated_at: createdAt,
      };
      context.posts.set(id, post);
      const writes = newPostWrites(post);
      // The feed's counters exactly as the feed write path moves them (feedAggregates); the file's topics are
      // new, so their feed-list counters item is created by the import (declared, deleted on rollback).
      const counts: PlannedCount[] = writes.aggregates.map((aggregate) => {
        if (aggregate.kind === 'topic') context.plan.aggregate(aggregate.key, aggregate.identity);
        return { key: aggregate.key, deltas: aggregate.deltas };
      });
      context.plan.unit(
        itemName('feeds', i, feed.ref),
        [
          { item: writes.post, unchanged: ['status', 'comments_count'] },
          writes.listing,
          ...writes.topicLinks,
        ],
        counts,
      );
      if (feed.ref !== undefined) {
        context.setId('feed', feed.ref, id);
        output[feed.ref] = id;
      }
    });
    return output;
  },
});
