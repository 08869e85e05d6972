import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { searchSpaceUsers } from '../../shared/domain/spaces/search-space-users.ts';
import { createTestUser } from '../support/api.ts';

/**
 * The space user search never reads a space's member list: members are excluded by one BatchGetItem of the
 * candidates' membership items per index page. Measured in read units (ReturnConsumedCapacity, this process)
 * by calling the use case: the same search costs the same in an empty space and in one of 300 members.
 */
const tag = `uc${randomBytes(4).toString('hex')}`;
const MEMBERS = 300;

let caller: Caller;
let emptySpace: number;
let crowdedSpace: number;

beforeAll(async () => {
  const admin = await createTestUser({ communityRole: 'admin' });
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
  const result = await runImport({
    users: [...people, ...candidates],
    spaces: [
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
});

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
});
