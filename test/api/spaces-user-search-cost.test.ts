import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { searchSpaceUsers } from '../../shared/domain/spaces/search-space-users.ts';
import { db } from '../../shared/db/client.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';

/**
 * The space user search never reads a space's member list: members are excluded by the BatchGetItems of the
 * candidates' membership items. Measured in read units (ReturnConsumedCapacity, this process) by calling the use
 * case: the same search costs the same in an empty space and in one of 300 members. And one request is bounded
 * whatever the space holds: 2 rounds, one Query and at most 2 BatchGetItems (issue 20's 3 reads), even when 120
 * members of the space sort before the candidates; `next_page_url` then continues the search. The index entries
 * carry what the answer needs of each user, so no user item is read, and a change of those fields (display name,
 * photo, status) shows in the next search.
 */
const tag = `uc${randomBytes(4).toString('hex')}`;
const MEMBERS = 300;
/** The prefix of the members-first search (apart from `tag`, whose search must find only its 5 candidates). */
const crowdTag = `ud${randomBytes(4).toString('hex')}`;

let caller: Caller;
let emptySpace: number;
let crowdedSpace: number;
let admin: TestUser;
/** A space whose 120 members sort before the 3 non-members matching the same prefix (`<crowdTag>m`). */
let memberFirstSpace: number;
let lateCandidates: number[];

beforeAll(async () => {
  admin = await createTestUser({ communityRole: 'admin' });
  caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'member',
    communityRoles: ['admin'],
    status: 'active',
  };
  const people = Array.from({ length: MEMBERS }, (_, index) => ({
    ref: `m${index}`,
    login: `zz${tag}_member_${index}`,
    email: `zz${tag}_member_${index}@example.com`,
  }));
  const candidates = Array.from({ length: 5 }, (_, index) => ({
    ref: `c${index}`,
    login: `${tag}_candidate_${index}`,
    email: `${tag}_candidate_${index}@example.com`,
  }));
  const early = Array.from({ length: 120 }, (_, index) => ({
    ref: `e${index}`,
    login: `${crowdTag}m_a_${String(index).padStart(3, '0')}`,
    email: `${crowdTag}m_a_${index}@example.com`,
  }));
  const late = Array.from({ length: 3 }, (_, index) => ({
    ref: `l${index}`,
    login: `${crowdTag}m_z_${index}`,
    email: `${crowdTag}m_z_${index}@example.com`,
  }));
  const result = await runImport({
    users: [...people, ...candidates, ...early, ...late],
    spaces: [
      {
        ref: 'memberFirst',
        title: `Members first ${tag}`,
        slug: `members-first-${tag}`,
        members: early.map((person) => ({ user: person.ref, role: 'member' })),
      },
      { ref: 'empty', title: `Empty ${tag}`, slug: `empty-${tag}` },
      {
        ref: 'crowded',
        title: `Crowded ${tag}`,
        slug: `crowded-${tag}`,
        members: people.map((person) => ({ user: person.ref, role: 'member' })),
      },
    ],
  });
  emptySpace = result.spaces.empty as number;
  crowdedSpace = result.spaces.crowded as number;
  memberFirstSpace = result.spaces.memberFirst as number;
  lateCandidates = late.map((person) => result.users[person.ref]?.id as number);
});

/** The DynamoDB calls `run` makes in this process and its serial rounds (the longest chain of calls each started after the one before it ended). */
async function callsOf<T>(
  run: () => Promise<T>,
): Promise<{ result: T; calls: string[]; inputs: string; rounds: number }> {
  const spans: { name: string; input: string; start: number; end: number }[] = [];
  const name = `round-meter-${tag}`;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const start = performance.now();
      try {
        return await next(args);
      } finally {
        spans.push({
          name: context.commandName as string,
          input: JSON.stringify(args.input),
          start,
          end: performance.now(),
        });
      }
    },
    { step: 'initialize', name },
  );
  try {
    const result = await run();
    spans.sort((a, b) => a.start - b.start);
    const chain: number[] = [];
    spans.forEach((span, index) => {
      const before = spans
        .slice(0, index)
        .map((other, at) => (other.end <= span.start ? (chain[at] ?? 0) : 0));
      chain.push(1 + Math.max(0, ...before));
    });
    return {
      result,
      calls: spans.map((span) => span.name),
      inputs: spans.map((span) => span.input).join('\n'),
      rounds: Math.max(0, ...chain),
    };
  } finally {
    db().middlewareStack.remove(name);
  }
}

async function unitsOf(spaceId: number): Promise<{ units: number; found: number }> {
  readMeter.reset();
  const page = await searchSpaceUsers(caller, { space_id: spaceId, search: tag });
  return { units: readMeter.total(), found: page.items.length };
}

describe('space user search cost', () => {
  it('does not grow with the number of members of the space', async () => {
    const empty = await unitsOf(emptySpace);
    const crowded = await unitsOf(crowdedSpace);
    expect(empty.found).toBe(5);
    expect(crowded.found).toBe(5);
    expect(crowded.units).toBe(empty.units);
    expect(crowded.units).toBeLessThan(10);
  });

  it('is bounded with many members of the space sorting first, and next_page_url continues the search', async () => {
    const first = await callsOf(() =>
      searchSpaceUsers(caller, { space_id: memberFirstSpace, search: `${crowdTag}m` }),
    );
    // The first 100 matching users are all members: nothing to list yet, and the bound holds.
    expect(first.result).toMatchObject({ items: [], total: 0, more: true });
    expect(first.result.nextCursor).toEqual(expect.any(String));
    expect(first.rounds).toBe(2);
    expect(first.calls.filter((call) => call.startsWith('Query'))).toHaveLength(1);
    // 100 users examined: their 100 memberships and the two permission keys, two BatchGetItems.
    expect(first.calls.filter((call) => call.startsWith('BatchGet'))).toHaveLength(2);
    expect(first.calls).toHaveLength(3);
    // The entries carry what the answer needs of each user: no user item (`USER#<id>`) is read.
    expect(first.inputs).not.toMatch(/"USER#/);

    // Each further request is bounded the same way; following the cursor finds the candidates, each once (a
    // member's other entries, e-mail after login, come back in later windows and are dropped again).
    const listed: number[] = [];
    let cursor = first.result.nextCursor;
    for (let page = 2; cursor !== null && page < 10; page++) {
      const next = await callsOf(() =>
        searchSpaceUsers(caller, {
          space_id: memberFirstSpace,
          search: `${crowdTag}m`,
          page,
          cursor: cursor ?? undefined,
        }),
      );
      expect(next.rounds).toBe(2);
      expect(next.calls.length).toBeLessThanOrEqual(3);
      listed.push(...next.result.items.map((candidate) => candidate.ID));
      expect(next.result.total).toBe(listed.length);
      cursor = next.result.nextCursor;
    }
    expect(cursor).toBeNull();
    expect(listed).toEqual(lateCandidates);

    // Through the API: paginator B offers next_page_url past last_page while the search goes on.
    type Users = { users: { data: { ID: number }[]; last_page: number; next_page_url: string | null } };
    const page = await api<Users>('GET', '/spaces/users/search', {
      as: admin,
      query: { space_id: memberFirstSpace, search: `${crowdTag}m` },
    });
    expect(page.status, page.text).toBe(200);
    expect(page.body.users).toMatchObject({ data: [], last_page: 1 });
    const viaApi: number[] = [];
    for (let url = page.body.users.next_page_url, hops = 0; url !== null && hops < 10; hops++) {
      const next = new URL(url);
      expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
      const followed = await api<Users>('GET', `${next.pathname.replace(/^\/v2/, '')}${next.search}`, {
        as: admin,
      });
      expect(followed.status, followed.text).toBe(200);
      viaApi.push(...followed.body.users.data.map((candidate) => candidate.ID));
      url = followed.body.users.next_page_url;
    }
    expect(viaApi).toEqual(lateCandidates);
  });
});
