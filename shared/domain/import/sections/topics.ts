import { topicSlugGuardKey } from '../../../db/keys/topics.ts';
import { importedTopicWrites, nextTopicSerial, slugify, type TopicItem } from '../../topics/index.ts';
import { ImportError, itemName } from '../import-error.ts';
import type { ImportTopic } from '../import-schema.ts';
import { defineSection } from './section.ts';

/** A topic's slug: the one given, else the one generated from its title (resolve refuses an empty one). */
const slugOf = (topic: ImportTopic): string => topic.slug ?? slugify(topic.title);

/**
 * `topics`: each topic with its slug guard, counted on the shared topic totals. A topic without a slug gets the
 * one generated from its title, checked like a given one; without a serial it goes after the largest in use.
 * `posts_count` starts at 0 and moves with each published feed carrying the topic.
 */
export const topicsSection = defineSection({
  name: 'topics',

  resolve(topics, scope) {
    topics.forEach((topic, i) => {
      const where = itemName('topics', i, topic.ref);
      const slug = slugOf(topic);
      if (slug === '') throw new ImportError(`${where}: slug: cannot be generated from the title; give one`);
      scope.define('topic', topic.ref, i, where);
      scope.unique('topic-slug', slug, where, 'slug');
    });
    // Parents after every ref is known, so a parent listed later is named as such rather than as unknown.
    topics.forEach((topic, i) => {
      if (topic.parent === null) return;
      const where = itemName('topics', i, topic.ref);
      const parent = scope.require('topic', topic.parent, `${where}: parent`);
      if (parent >= i)
        throw new ImportError(`${where}: parent: parent "${topic.parent}" must be listed before the topic`);
    });
  },

  mustBeFree: (topics) =>
    topics.map((topic, i) => ({
      key: topicSlugGuardKey(slugOf(topic)),
      message: `${itemName('topics', i, topic.ref)}: slug "${slugOf(topic)}" is already taken`,
    })),

  ids: (topics) => ({ topic: topics.length }),

  prepare: async (topics) => ({
    nextSerial: topics.some((topic) => topic.serial === undefined) ? await nextTopicSerial() : 1,
  }),

  build(topics, context, prepared) {
    const output: Record<string, number> = {};
    topics.forEach((topic, i) => {
      const id = context.takeId('topic');
      context.setId('topic', topic.ref, id);
      const label = itemName('topics', i, topic.ref);
      const createdAt = topic.created_at ?? context.now;
      const item: TopicItem = {
        id,
        title: topic.title,
        title_lc: topic.title.toLowerCase(),
        slug: slugOf(topic),
        description: topic.description,
        color: topic.color ?? '',
        icon: topic.icon,
        parent_id: topic.parent === null ? null : context.idOf('topic', topic.parent),
        status: topic.status,
        serial: topic.serial ?? prepared.nextSerial + i,
        posts_count: 0,
        created_at: createdAt,
        updated_at: createdAt,
      };
      const writes = importedTopicWrites(item);
      context.plan.guard(writes.guard, `${label}: slug "${item.slug}"`);
      context.plan.unit(label, writes.items, writes.counts);
      output[topic.ref] = id;
    });
    return output;
  },
});
