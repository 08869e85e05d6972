import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { topicSlugGuardKey } from '../../shared/db/keys/topics.ts';
import { getItem } from '../../shared/db/reads.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import {
  createdTopic,
  createTopic,
  deleteTopic,
  expectError,
  listAll,
  listTopics,
  uniqueToken,
  updateTopic,
} from '../support/topics.ts';

/** Races through the local gateway: every request of a batch is in flight at once (`Promise.all`). */

let admin: TestUser;
beforeAll(async () => {
  admin = await createTestUser({ communityRole: 'admin' });
});

describe('twenty concurrent creates with one explicit slug', () => {
  it('make exactly one topic; the nineteen others are 400 duplicate_slug', async () => {
    const token = uniqueToken();
    const slug = `race-${token}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTopic(admin, { title: `Racer ${i} ${token}`, slug })),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created).toHaveLength(1);
    const refused = responses.filter((response) => response.status !== 201);
    expect(refused).toHaveLength(19);
    for (const response of refused) expectError(response, 400, 'duplicate_slug');

    const topics = await listAll(admin, { search: token });
    expect(topics.map((topic) => [topic.id, topic.slug])).toEqual([[created[0]!.body.id, slug]]);
    const guard = await getItem(topicSlugGuardKey(slug), v.object({ topic_id: v.number() }), {
      consistent: true,
    });
    expect(guard).toEqual({ topic_id: created[0]!.body.id });
  });
});

describe('concurrent creates with one title and no slug', () => {
  it('all succeed with distinct generated slugs: the title’s, then -2, -3…', async () => {
    const token = uniqueToken();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => createTopic(admin, { title: `Same ${token}` })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    const slugs = responses.map((response) => response.body.slug).sort();
    const base = `same-${token}`;
    expect(slugs).toEqual([base, ...Array.from({ length: 7 }, (_, i) => `${base}-${i + 2}`)].sort());
  });
});

describe('concurrent updates of one topic', () => {
  it('all apply, one after the other, and the totals agree with the final state', async () => {
    const token = uniqueToken();
    const from = await createdTopic(admin, { title: `From ${token}` });
    const to = await createdTopic(admin, { title: `To ${token}` });
    const topic = await createdTopic(admin, { title: `Contested ${token}`, parent_id: from.id });
    const changes = Array.from({ length: 10 }, (_, i) => ({
      status: i % 2 === 0 ? 'inactive' : 'active',
      parent_id: i % 3 === 0 ? to.id : from.id,
      serial: 100 + i,
      description: `Writer ${i}`,
    }));
    const responses = await Promise.all(changes.map((change) => updateTopic(admin, topic.id, change)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));

    const [final] = (await listAll(admin, { search: token })).filter((t) => t.id === topic.id);
    // The final state is exactly one writer's: no field from one writer mixed with another's.
    const writer = Number(final!.description.replace('Writer ', ''));
    expect(final).toMatchObject(changes[writer]!);
    for (const parent of [from, to]) {
      const holds = final!.parent_id === parent.id ? 1 : 0;
      expect((await listTopics(admin, { parent_id: parent.id })).body.pagination.total).toBe(holds);
      for (const status of ['active', 'inactive']) {
        const list = await listTopics(admin, { parent_id: parent.id, status });
        const expected = holds && final!.status === status ? 1 : 0;
        expect(list.body.pagination.total, `${parent.title} ${status}`).toBe(expected);
        expect(list.body.topics).toHaveLength(expected);
      }
    }
  });
});

describe('concurrent re-parenting', () => {
  it('never makes a cycle: of A under B and B under A, exactly one is applied', async () => {
    for (let round = 0; round < 5; round++) {
      const token = uniqueToken();
      const a = await createdTopic(admin, { title: `A ${token}` });
      const b = await createdTopic(admin, { title: `B ${token}` });
      const [ab, ba] = await Promise.all([
        updateTopic(admin, a.id, { parent_id: b.id }),
        updateTopic(admin, b.id, { parent_id: a.id }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 400]);
      expectError(ab.status === 400 ? ab : ba, 400, 'rest_invalid_param');
      const parents = new Map((await listAll(admin, { search: token })).map((t) => [t.id, t.parent_id]));
      expect(parents).toEqual(
        ab.status === 200
          ? new Map([
              [a.id, b.id],
              [b.id, null],
            ])
          : new Map([
              [a.id, null],
              [b.id, a.id],
            ]),
      );
    }
  });

  it('a three-topic ring cannot close either', async () => {
    const token = uniqueToken();
    const [a, b, c] = [
      await createdTopic(admin, { title: `A ${token}` }),
      await createdTopic(admin, { title: `B ${token}` }),
      await createdTopic(admin, { title: `C ${token}` }),
    ];
    const responses = await Promise.all([
      updateTopic(admin, a.id, { parent_id: b.id }),
      updateTopic(admin, b.id, { parent_id: c.id }),
      updateTopic(admin, c.id, { parent_id: a.id }),
    ]);
    expect(responses.filter((response) => response.status === 200).length).toBe(2);
    const parents = new Map((await listAll(admin, { search: token })).map((t) => [t.id, t.parent_id]));
    expect([...parents.values()].filter((parent) => parent === null)).toHaveLength(1);
  });
});

describe('a delete racing a create under it', () => {
  it('never leaves a child pointing at the deleted topic', async () => {
    for (let round = 0; round < 3; round++) {
      const token = uniqueToken();
      const parent = await createdTopic(admin, { title: `Doomed parent ${token}` });
      const [deleted, created] = await Promise.all([
        deleteTopic(admin, parent.id),
        createTopic(admin, { title: `Late child ${token}`, parent_id: parent.id }),
      ]);
      expect(deleted.status).toBe(200);
      if (created.status === 201) {
        const [child] = await listAll(admin, { search: `Late child ${token}` });
        expect(child?.parent_id).toBeNull();
      } else {
        expectError(created, 400, 'rest_invalid_param');
      }
      expect((await listTopics(admin, { parent_id: parent.id })).body.pagination.total).toBe(0);
    }
  });
});
