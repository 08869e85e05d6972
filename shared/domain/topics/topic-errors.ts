import { AppError, invalidParams, notFound } from '../../errors/app-error.ts';
import { MAX_TOPIC_ANCESTORS, type ParentCheck } from './topic-hierarchy.ts';

/** The contract's codes for topics (Errors table) and the decisions' validation refusals. */
export const topicNotFound = () => notFound('not_found', 'Topic not found.');

export const duplicateSlug = (slug: string) =>
  new AppError('duplicate_slug', 400, `A topic with the slug "${slug}" already exists.`);

export const slugWithoutLetters = () => invalidParams({ slug: 'must contain at least one letter or digit' });

const PARENT_MESSAGES: Record<Exclude<ParentCheck, { ok: true }>['reason'], string> = {
  unknown_parent: 'no topic has this id',
  cycle: 'a topic cannot be its own parent or the parent of one of its ancestors',
  too_deep: `the parent's ancestor chain is longer than ${MAX_TOPIC_ANCESTORS} levels`,
};

export const invalidParent = (reason: keyof typeof PARENT_MESSAGES) =>
  invalidParams({ parent_id: PARENT_MESSAGES[reason] });
