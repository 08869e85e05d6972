/** The topics domain's public surface: what other domains may use (README, import rules). */
export { isValidSlug, slugify } from './slug.ts';
export * from './topic-item.ts';
export { recountTopicPostCounts, type TopicPostCountReport } from './recount-topic-post-counts.ts';
export { storedTopicSearchEntries } from './topic-search-entries.ts';
export { checkPostTopics, type PostTopicContext } from './check-post-topics.ts';
export {
  findLargestTopicSerial,
  findTopicsByIds,
  topicPostCountKeyOf,
  topicPostsCountActions,
  topicsByIdsRead,
} from './topic-repository.ts';
export {
  DEFAULT_TOPICS_CONFIG,
  getTopicsConfig,
  type TopicsConfig,
  topicsConfigRead,
} from './topics-config.ts';
