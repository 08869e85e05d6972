import { invalidParams } from '../../errors/app-error.ts';
import type { TopicItem } from './topic-item.ts';
import type { TopicsConfig } from './topics-config.ts';

/** What a feed's topics are checked against besides the configuration: its space's `topic_required` switch. */
export interface PostTopicContext {
  readonly config: TopicsConfig;
  /** The space's setting `topic_required` is `yes` (always false for the global feed). */
  readonly spaceRequiresTopic: boolean;
  /** The topics the ids name, as found (unknown ids are simply absent). */
  readonly found: readonly Pick<TopicItem, 'id' | 'status'>[];
}

/**
 * The topic rules of `POST /feeds` and `PUT /feeds/{id}` (decisions.md "Topics and feeds"). Every violation is
 * 400 `rest_invalid_param` naming `topics`; nothing is silently dropped. Answers the ids to store (deduplicated,
 * in the order given). Pure: the caller reads the configuration and the topics.
 */
export function checkPostTopics(topicIds: readonly number[], context: PostTopicContext): number[] {
  const ids = [...new Set(topicIds)];
  const refuse = (message: string) => invalidParams({ topics: message });
  const { config } = context;
  if (ids.length > 0 && !config.enabled) throw refuse('topics are disabled');
  if (ids.length === 0) {
    if (config.enabled && (config.required_for_posts || context.spaceRequiresTopic)) {
      throw refuse('at least one topic is required');
    }
    return ids;
  }
  const byId = new Map(context.found.map((topic) => [topic.id, topic]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw refuse(`unknown topic id(s): ${unknown.join(', ')}`);
  const inactive = ids.filter((id) => byId.get(id)?.status !== 'active');
  if (inactive.length > 0) throw refuse(`inactive topic id(s): ${inactive.join(', ')}`);
  if (!config.allow_multiple && ids.length > 1) throw refuse('only one topic is allowed per post');
  if (ids.length > config.max_topics_per_post) {
    throw refuse(`at most ${config.max_topics_per_post} topics are allowed per post`);
  }
  return ids;
}
