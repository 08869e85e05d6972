import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { listTopics } from '../../shared/domain/topics/list-topics.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { createdTopic, listAll, updateTopic } from '../support/topics.ts';

/**
 * Issue 21, item 18: `GET /admin/topics?search=` is served by the title trigram index, so page 1 costs the same
 * whatever the number of topics that do not match. Measured in read units (ReturnConsumedCapacity, this process)
 * by calling the use case, before and after 300 more topics whose titles share every common word but not the term.
 * The index follows renames, status and parent changes in the topic's own transaction.
 */
// Greek letters: the other test files' titles (random hex tags, English words) share none of the term's trigrams,
// so the units measured here cannot change with what runs beside this file.
// No sigma: an upper-cased Σ lower-cases to the final form ς at a word's end, which the title's σ would not match.
const GREEK = 'αβγδεζηθικλμνξοπρτυφχψω';
const tag = `ts${Array.from(randomBytes(8), (byte) => GREEK[byte % GREEK.length]).join('')}`;
const slugTag = randomBytes(4).toString('hex');
let admin: TestUser;
let caller: Caller;

beforeAll(async () => {
  admin = await createTestUser({ hostRole: 'administrator' });
  caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  await runImport({
    topics: Array.from({ length: 3 }, (_, i) => ({
      ref: `m${i}`,
      title: `Topic ${tag} number ${i}`,
      slug: `match-${slugTag}-${i}`,
    })),
  });
});

async function unitsOf(search: string): Promise<{ units: number; total: number }> {
  readMeter.reset();
  const page = await listTopics(caller, { search, page: 1, per_page: 50 });
  return { units: readMeter.total(), total: page.total };
}

describe('issue 21 item 18: topic search cost', () => {
  it('does not grow with the topics that do not match', async () => {
    const before = await unitsOf(tag.toUpperCase());
    await runImport({
      topics: Array.from({ length: 300 }, (_, i) => ({
        ref: `o${i}`,
        title: `Topic number ${i} of the others`,
        slug: `other-${slugTag}-${i}`,
      })),
    });
    const after = await unitsOf(tag.toUpperCase());
    expect(before.total).toBe(3);
    expect(after.total).toBe(3);
    expect(after.units).toBe(before.units);
    expect(after.units).toBeLessThan(10);
  });

  it('follows a rename, a status and a parent change at once', async () => {
    const topic = await createdTopic(admin, { title: `Old ${tag} name` });
    const parent = await createdTopic(admin, { title: `Parent ${tag}` });
    expect((await listAll(admin, { search: `old ${tag}` })).map((t) => t.id)).toEqual([topic.id]);
    expect(
      (await updateTopic(admin, topic.id, { title: `New ${tag} name`, status: 'inactive' })).status,
    ).toBe(200);
    expect(await listAll(admin, { search: `old ${tag}` })).toEqual([]);
    expect((await listAll(admin, { search: `NEW ${tag}`, status: 'inactive' })).map((t) => t.id)).toEqual([
      topic.id,
    ]);
    expect(await listAll(admin, { search: `new ${tag}`, status: 'active' })).toEqual([]);
    expect((await updateTopic(admin, topic.id, { parent_id: parent.id })).status).toBe(200);
    expect((await listAll(admin, { search: `new ${tag}`, parent_id: parent.id })).map((t) => t.id)).toEqual([
      topic.id,
    ]);
    expect(await listAll(admin, { search: `new ${tag}`, parent_id: 0 })).toEqual([]);
  });

  it('matches a substring anywhere in the title, across words, and short terms too', async () => {
    const topic = await createdTopic(admin, { title: `Zq${tag}Xy and more` });
    expect((await listAll(admin, { search: `${tag.slice(3)}xy an` })).map((t) => t.id)).toEqual([topic.id]);
    const short = await listAll(admin, { search: 'zq' });
    expect(short.map((t) => t.id)).toContain(topic.id);
  });
});
