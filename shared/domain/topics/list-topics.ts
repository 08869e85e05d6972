import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { topicCountName, type TopicStatus } from './topic-item.ts';
import { type TopicResponse, toTopicResponse } from './topic-mapper.ts';
import {
  findTopicsWithTitleContaining,
  getTopicStats,
  queryTopicPage,
  type TopicListFilter,
} from './topic-repository.ts';

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
 * end reads nothing but the stats. With `search` (case-insensitive substring of the title), the narrowest list is
 * read whole and the matches counted: see ACCESS_PATTERNS.md, "Topics", for that bounded cost.
 */
export async function listTopics(caller: Caller, input: ListTopicsInput): Promise<TopicPage> {
  if (!isAdministrator(caller)) throw forbidden();
  const filter: TopicListFilter = { status: input.status, parentId: input.parent_id };
  const page = { page: input.page, perPage: input.per_page };
  const term = input.search?.toLowerCase();

  if (term) {
    const matches = await findTopicsWithTitleContaining(filter, term);
    const start = (input.page - 1) * input.per_page;
    const items = matches.slice(start, start + input.per_page).map(toTopicResponse);
    return { ...page, items, total: matches.length };
  }

  const total = (await getTopicStats())[topicCountName(filter)] ?? 0;
  const found = await queryTopicPage(filter, { ...page, total });
  return { ...page, items: found.items.map(toTopicResponse), total };
}
