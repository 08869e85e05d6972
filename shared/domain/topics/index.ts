/** The topics domain's public surface: what other domains may use (README, import rules). */
export { isValidSlug, slugify } from './slug.ts';
export * from './topic-item.ts';
export { findLargestTopicSerial } from './topic-repository.ts';
