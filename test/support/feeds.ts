import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { postSweepKey } from '../../shared/db/keys/feeds.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from './api.ts';

/**
 * Feed test fixtures: spaces, memberships and topics through the operator import (the contract has no endpoint that
 * creates them), feeds and comments through the API itself. Every name is unique per call, so files run in parallel
 * against one table.
 */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

export type SpaceRoleName = 'admin' | 'moderator' | 'member';

/** A community space with these members (by test user), created by the import; answers its id. */
export async function createSpace(
  options: {
    privacy?: 'public' | 'private' | 'secret';
    members?: readonly (readonly [TestUser, SpaceRoleName])[];
    settings?: Record<string, string>;
  } = {},
): Promise<number> {
  const slug = unique('space');
  const result = await runImport({
    spaces: [
      {
        ref: 's',
        title: `Space ${slug}`,
        slug,
        privacy: options.privacy ?? 'public',
        settings: options.settings ?? {},
        members: (options.members ?? []).map(([user, role]) => ({ user: user.username, role })),
      },
    ],
  });
  return result.spaces.s as number;
}

/** Topics (active unless said otherwise), created by the import; answers their ids in order. */
export async function createTopics(
  count: number,
  options: { status?: 'active' | 'inactive' } = {},
): Promise<number[]> {
  const topics = Array.from({ length: count }, (_, index) => {
    const slug = unique(`topic${index}`);
    return { ref: `t${index}`, title: `Topic ${slug}`, slug, status: options.status ?? 'active' };
  });
  const result = await runImport({ topics });
  return topics.map((topic) => result.topics[topic.ref] as number);
}

export interface FeedBody {
  title?: string;
  message?: string;
  space_id?: number | null;
  topics?: number[];
  status?: string;
  media?: { type: string; url: string }[];
}

export type Feed = Record<string, unknown> & {
  id: number;
  user_id: number;
  space_id: number | null;
  status: string;
  comments_count: number;
  reactions_count: number;
  message_rendered: string;
  created_at: string;
  updated_at: string;
  topics: { id: number; title: string; slug: string; color: string; icon: string }[];
  liked: boolean;
};

export type FeedPage = { current_page: number; data: Feed[]; total: number; per_page: number };

/** POST /feeds, expecting 201. */
export async function postFeed(as: TestUser, body: FeedBody): Promise<Feed> {
  const response = await api<{ feed: Feed }>('POST', '/feeds', {
    as,
    body: { message: `Message ${unique('m')}`, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.feed;
}

/** Posts a published comment on a feed (201 expected) and answers it. */
export async function postComment(
  as: TestUser,
  feedId: number,
  message: string,
): Promise<Record<string, unknown>> {
  const response = await api<{ comment: Record<string, unknown> }>('POST', `/feeds/${feedId}/comments`, {
    as,
    body: { message },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.comment;
}

export const getFeed = (as: TestUser, id: number) => api<{ feed: Feed }>('GET', `/feeds/${id}`, { as });

export const listFeeds = (as: TestUser, query: Record<string, string | number> = {}) =>
  api<{ feeds: FeedPage }>('GET', '/feeds', { as, query });

/** Every feed of a list, following pages of 100 (asserting each page's total agrees). */
export async function allFeeds(as: TestUser, query: Record<string, string | number> = {}) {
  const feeds: Feed[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const response = await listFeeds(as, { ...query, page, per_page: 100 });
    expect(response.status, response.text).toBe(200);
    total = response.body.feeds.total;
    feeds.push(...response.body.feeds.data);
    if (response.body.feeds.data.length < 100) break;
  }
  return { feeds, total };
}

/** Expects the contract's error envelope with this status and code; answers `data.params` when present. */
export function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const body = response.body as { code: string; message: string; data: { status: number; params?: unknown } };
  expect(body.code, response.text).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.data.status).toBe(status);
  return body.data.params;
}

/** The feed, read back by its author: undefined when it is gone. */
export async function feedOf(as: TestUser, id: number): Promise<Feed | undefined> {
  const response = await getFeed(as, id);
  if (response.status === 404) return undefined;
  expect(response.status, response.text).toBe(200);
  return response.body.feed;
}

/**
 * Polls until the `feeds` worker (run by the local stack's poller) has removed a deleted feed's likes and comments
 * with their authors' counters: its sweep marker is gone.
 */
export async function feedSwept(feedId: number, timeoutMs = 20_000): Promise<void> {
  const marker = async () =>
    (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: postSweepKey(feedId), ConsistentRead: true }),
      )
    ).Item;
  await expect.poll(marker, { timeout: timeoutMs, interval: 100 }).toBeUndefined();
}

/**
 * The four callers most feed list tests compare: an author and a member (both to be made members of the spaces the
 * test creates), an outsider, and a community moderator.
 */
export async function feedAudience(): Promise<{
  author: TestUser;
  member: TestUser;
  outsider: TestUser;
  moderator: TestUser;
  members: readonly (readonly [TestUser, SpaceRoleName])[];
}> {
  const [author, member, outsider, moderator] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  const members = [
    [author, 'member'],
    [member, 'member'],
  ] as const;
  return { author, member, outsider, moderator, members };
}
