import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { type TopicStats, type TopicStatus, topicCountName } from './topic-item.ts';
import { type TopicResponse, toTopicResponse } from './topic-mapper.ts';
import {
  getTopicStats,
  queryTopicPage,
  searchTopicPage,
  type TopicListFilter,
  withPostCounts,
} from './topic-repository.ts';
import type { TopicItem } from './topic-item.ts';
import { GRAM_LENGTH } from './topic-search-entries.ts';
import { searchTopicsByTrigrams } from './topic-search-repository.ts';

/** The list's query as the contract delivers it (defaults applied there). */
export interface ListTopicsInput {
  readonly status?: TopicStatus | undefined;
  /** 0: top-level topics. */
  readonly parent_id?: number | undefined;
  readonly search?: string | undefined;
  readonly page: number;
  readonly per_page: number;
}

export interface TopicPage {
  readonly items: TopicResponse[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
}

/**
 * `GET /admin/topics`, in display order (serial, then id). Without `search`, the page is one key-condition Query
 * and the total comes from the stats item, so page 1 costs the same for 10 or 100 000 topics and a page past the
 * end reads nothing but the stats. With `search` (case-insensitive substring of the title, decisions.md) of three
 * characters or more, the trigram index answers (topic-search-repository.ts): the cost grows with the topics that
 * share a trigram with the term, not with the others. A one- or two-character term, which most titles contain
 * anyway, is matched over the narrowest list read whole (ACCESS_PATTERNS.md, "Topics").
 */
export async function listTopics(caller: Caller, input: ListTopicsInput): Promise<TopicPage> {
  if (!isAdministrator(caller)) throw forbidden();
  const filter: TopicListFilter = { status: input.status, parentId: input.parent_id };
  const page = { page: input.page, perPage: input.per_page };
  const term = input.search?.toLowerCase();

  if (term) {
    const slice = { offset: (input.page - 1) * input.per_page, limit: input.per_page };
    const found =
      Array.from(term).length >= GRAM_LENGTH
        ? await searchTopicsByTrigrams(filter, term, slice)
        : await searchTopicPage(filter, term, slice);
    return { ...page, items: await responses(found.items), total: found.total };
  }

  const totalOf = (stats: TopicStats) => stats[topicCountName(filter)] ?? 0;
  // Page 1 reads the stats and the page at once; a later page reads the total first, so that a page past the
  // end reads nothing more and the skip to an existing page is bounded by it.
  if (input.page === 1) {
    const [stats, found] = await Promise.all([getTopicStats(), queryTopicPage(filter, page)]);
    return { ...page, items: await responses(found.items), total: totalOf(stats) };
  }
  const total = totalOf(await getTopicStats());
  const found = await queryTopicPage(filter, { ...page, total });
  return { ...page, items: await responses(found.items), total };
}

/** The page's topics with their `posts_count` (one BatchGetItem of ≤ 100 keys, one more round of reads). */
const responses = async (items: readonly TopicItem[]) => (await withPostCounts(items)).map(toTopicResponse);
