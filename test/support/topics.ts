import { randomBytes } from 'node:crypto';
import { runImport } from '../../shared/domain/import/run-import.ts';
import type { TopicResponse } from '../../shared/domain/topics/topic-mapper.ts';
import { type ApiResponse, api, type TestUser } from './api.ts';

/** Helpers of the topic API tests (test/api/topics-*.test.ts). */

/** A topic as the API answers it (the mapper's shape). */
export type Topic = TopicResponse;

export interface TopicList {
  topics: Topic[];
  pagination: { total: number; per_page: number; current_page: number; total_pages: number };
}

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; params?: Record<string, string> | string[] };
}

export const SQL_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A token no other test's titles contain, so `search=<token>` isolates a test's topics from everything else the
 * parallel test files create in the one table. Letters only, so it survives slug generation unchanged.
 */
export function uniqueToken(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return `zq${Array.from(randomBytes(10), (byte) => letters[byte % 26]).join('')}`;
}

export const createTopic = (as: TestUser, body: Record<string, unknown>) =>
  api<Topic & { message: string }>('POST', '/admin/topics', { as, body });

export async function createdTopic(as: TestUser, body: Record<string, unknown>): Promise<Topic> {
  const response = await createTopic(as, body);
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
  const { message: _message, ...topic } = response.body;
  return topic;
}

export const updateTopic = (as: TestUser, id: number | string, body: Record<string, unknown>) =>
  api<Record<string, unknown>>('PUT', `/admin/topics/${id}`, { as, body });

export const deleteTopic = (as: TestUser, id: number | string) =>
  api<{ message: string }>('DELETE', `/admin/topics/${id}`, { as });

export const listTopics = (as: TestUser, query: Record<string, string | number> = {}) =>
  api<TopicList>('GET', '/admin/topics', { as, query });

/** Every topic of a filtered list, following the pages. */
export async function listAll(as: TestUser, query: Record<string, string | number>): Promise<Topic[]> {
  const topics: Topic[] = [];
  for (let page = 1; ; page++) {
    const response = await listTopics(as, { ...query, page, per_page: 100 });
    if (response.status !== 200) throw new Error(`list failed: ${response.text}`);
    topics.push(...response.body.topics);
    if (page >= response.body.pagination.total_pages) return topics;
  }
}

/** The one topic of this id in a search-isolated list. */
export async function findTopic(as: TestUser, token: string, id: number): Promise<Topic | undefined> {
  return (await listAll(as, { search: token })).find((topic) => topic.id === id);
}

export function expectError(response: ApiResponse, status: number, code: string): ErrorBody {
  const body = response.body as ErrorBody;
  if (response.status !== status || body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${response.text}`);
  }
  if (body.data?.status !== status) throw new Error(`envelope without data.status: ${response.text}`);
  if (typeof body.message !== 'string' || body.message === '') throw new Error('envelope without message');
  return body;
}

/** Display order: serial, then id. */
export const inDisplayOrder = (topics: readonly Topic[]) =>
  [...topics].sort((a, b) => a.serial - b.serial || a.id - b.id).map((topic) => topic.id);

/** A topic and a feed for `importTopicsWithFeeds` (topics name topic refs; feeds are published unless told). */
export interface ImportedTopic {
  ref: string;
  title: string;
  slug: string;
  parent?: string;
  serial?: number;
}
export interface ImportedFeed {
  ref: string;
  topics: string[];
  status?: string;
}

/** An operator import of one space `author` belongs to, topics, and the author's feeds in that space carrying them. */
export function importTopicsWithFeeds(
  author: TestUser,
  token: string,
  topics: ImportedTopic[],
  feeds: ImportedFeed[],
) {
  return runImport({
    spaces: [
      {
        ref: 'space',
        title: `Space ${token}`,
        slug: `space-${token}`,
        members: [{ user: author.username, role: 'member' }],
      },
    ],
    topics,
    feeds: feeds.map((feed) => ({
      ref: feed.ref,
      user: author.username,
      space: 'space',
      title: `Feed ${feed.ref}`,
      message: `Message of ${feed.ref}`,
      topics: feed.topics,
      status: feed.status ?? 'published',
    })),
  });
}
