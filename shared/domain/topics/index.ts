/** The topics domain's public surface: what other domains may use (README, import rules). */
export { isValidSlug, slugify } from './slug.ts';
export type { TopicItem, TopicStatus } from './topic-item.ts';
export {
  removeTopicPostCountShards,
  type TopicPostCountShardsReport,
} from './remove-topic-post-count-shards.ts';
export { type TopicReadCopiesReport, upgradeTopicReadCopies } from './upgrade-topic-read-copies.ts';
export { checkPostTopics, type PostTopicContext } from './check-post-topics.ts';
export { findTopicsByIds, nextTopicSerial, topicsByIdsRead } from './topic-lookups.ts';
export { importedTopicWrites } from './topic-write-actions.ts';
export {
  DEFAULT_TOPICS_CONFIG,
  getTopicsConfig,
  type TopicsConfig,
  topicsConfigRead,
} from './topics-config.ts';
