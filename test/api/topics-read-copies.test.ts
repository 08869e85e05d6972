import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { topicKey, topicReadCopies } from '../../shared/db/keys/topics.ts';
import { batchGetRawItems, parseItem } from '../../shared/db/reads.ts';
import { replicaKeys } from '../../shared/db/replicated-item.ts';
import { putAction, transactWrite } from '../../shared/db/transact.ts';
import { storedTopicCopies, TopicItemSchema } from '../../shared/domain/topics/topic-item.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { meteredFigures } from '../support/dynamodb-meter.ts';
import { createSpace, createTopics, type Feed, getFeed, listFeeds, postFeed } from '../support/feeds.ts';
import { createdTopic, deleteTopic, uniqueToken, updateTopic } from '../support/topics.ts';

/**
 * Issue 20: a topic's reads by id (the topics every feed page, `GET /feeds/{id}` and feed write shows) take one of
 * its 4 read copies at random (`topicReadCopies`), never the topic item, which every topic transaction (create,
 * update, a parent's delete moving it, delete) and the import write together with the copies.
 */
let admin: TestUser;
let author: TestUser;
let space: number;
beforeAll(async () => {
  [admin, author] = await Promise.all([createTestUser({ hostRole: 'administrator' }), createTestUser()]);
  space = await createSpace({ members: [[author, 'member']] });
});

/** The stored copies of a topic, raw, in replica order (absent ones left out). */
async function copiesOf(topicId: number): Promise<Record<string, unknown>[]> {
  const found = await batchGetRawItems(replicaKeys(topicReadCopies(topicId)), true);
  return found.sort((a, b) => String(a.pk).localeCompare(String(b.pk)));
}

const topicTitles = (feed: Feed) =>
  (feed.topics as { id: number; title: string }[]).map((topic) => topic.title);

/** The partitions of a metered request's calls. */
const partitionsRead = (calls: string) => calls.match(/[A-Z]+#[^,() ]+/g) ?? [];

describe('topic read copies', () => {
  it('a create writes 4 copies without index entries; a rename shows on every later read', async () => {
    const token = uniqueToken();
    const topic = await createdTopic(admin, { title: `Copied ${token}` });
    const copies = await copiesOf(topic.id);
    expect(copies).toHaveLength(4);
    for (const copy of copies) {
      expect(copy).toMatchObject({ entity: 'topic_copy', id: topic.id, title: `Copied ${token}` });
      expect(Object.keys(copy).filter((name) => name.startsWith('gsi'))).toEqual([]);
    }
    const feed = await postFeed(author, { space_id: space, topics: [topic.id] });

    const renamed = await updateTopic(admin, topic.id, { title: `Renamed ${token}` });
    expect(renamed.status, renamed.text).toBe(200);
    for (const copy of await copiesOf(topic.id)) expect(copy.title).toBe(`Renamed ${token}`);
    // Twelve reads of each: each takes a copy at random, so every copy is read with near certainty.
    for (let read = 0; read < 12; read++) {
      const one = await getFeed(author, feed.id);
      expect(topicTitles(one.body.feed)).toEqual([`Renamed ${token}`]);
      const list = await listFeeds(author, { space_id: space, per_page: 50 });
      const listed = list.body.feeds.data.find((item) => item.id === feed.id);
      expect(listed && topicTitles(listed)).toEqual([`Renamed ${token}`]);
      const byTopic = await listFeeds(author, { topics: String(topic.id) });
      expect(byTopic.body.feeds.data.map((item) => item.id)).toEqual([feed.id]);
    }

    const off = await updateTopic(admin, topic.id, { status: 'inactive' });
    expect(off.status, off.text).toBe(200);
    for (const copy of await copiesOf(topic.id)) expect(copy.status).toBe('inactive');
    expect(topicTitles((await getFeed(author, feed.id)).body.feed)).toEqual([]);
  });

  it('reads by id take a copy and never the topic item', async () => {
    const topic = await createdTopic(admin, { title: `Metered ${uniqueToken()}` });
    const feed = await postFeed(author, { space_id: space, topics: [topic.id] });
    const seen = new Set<string>();
    // 40 reads: each copy is missed by all of them with probability 0.75^40 (about 1e-5).
    for (let read = 0; read < 20; read++) {
      for (const response of [
        await api('GET', `/feeds/${feed.id}`, { as: author }),
        await api('GET', '/feeds', { as: author, query: { space_id: space } }),
      ]) {
        expect(response.status, response.text).toBe(200);
        const read = partitionsRead(meteredFigures(response).calls);
        expect(read).not.toContain(topicKey(topic.id).pk);
        for (const pk of read.filter((pk) => pk.startsWith(`${topicKey(topic.id).pk}#R`))) seen.add(pk);
      }
    }
    expect([...seen].sort()).toEqual(replicaKeys(topicReadCopies(topic.id)).map((key) => key.pk));
  });

  it('an imported topic has its copies; one without copies (an older stage) is read from its item', async () => {
    const [imported] = (await createTopics(1)) as [number];
    expect(await copiesOf(imported)).toHaveLength(4);
    const feed = await postFeed(author, { space_id: space, topics: [imported] });
    for (const key of replicaKeys(topicReadCopies(imported)))
      await db().send(new DeleteCommand({ TableName: tableName(), Key: key }));
    try {
      const response = await api<{ feed: Feed }>('GET', `/feeds/${feed.id}`, { as: author });
      expect((response.body.feed.topics as { id: number }[]).map((topic) => topic.id)).toEqual([imported]);
      expect(partitionsRead(meteredFigures(response).calls)).toContain(topicKey(imported).pk);
    } finally {
      // The copies back (the feed is on every timeline, whose round trips other tests count).
      const [item] = await batchGetRawItems([topicKey(imported)], true);
      if (item)
        await transactWrite(
          storedTopicCopies(parseItem(TopicItemSchema, item)).map((copy) => putAction(copy)),
        );
    }
  });

  it("a parent's delete moves its child with its copies; a deleted topic's copies read as absent", async () => {
    const token = uniqueToken();
    const parent = await createdTopic(admin, { title: `Parent ${token}` });
    const child = await createdTopic(admin, { title: `Child ${token}`, parent_id: parent.id });
    const feed = await postFeed(author, { space_id: space, topics: [parent.id, child.id] });

    const removed = await deleteTopic(admin, parent.id);
    expect(removed.status, removed.text).toBe(200);
    for (const copy of await copiesOf(child.id)) expect(copy.parent_id).toBeNull();
    // The deleted topic's copies hold nothing of it: reads answer it absent, without reading its item.
    const gone = await copiesOf(parent.id);
    expect(gone).toHaveLength(4);
    for (const copy of gone) expect(Object.keys(copy).sort()).toEqual(['pk', 'replicated', 'sk']);
    const response = await api<{ feed: Feed }>('GET', `/feeds/${feed.id}`, { as: author });
    expect(topicTitles(response.body.feed)).toEqual([`Child ${token}`]);
    const figures = meteredFigures(response);
    expect(partitionsRead(figures.calls)).not.toContain(topicKey(parent.id).pk);
    expect(figures.rounds).toBe(2);
    // The feed's listing entry still names the deleted topic (lists read its topics from it): no read falls back.
    const list = await api<{ feeds: { data: Feed[] } }>('GET', '/feeds', {
      as: author,
      query: { space_id: space },
    });
    const listed = list.body.feeds.data.find((item) => item.id === feed.id);
    expect(listed && topicTitles(listed)).toEqual([`Child ${token}`]);
    expect(partitionsRead(meteredFigures(list).calls)).not.toContain(topicKey(parent.id).pk);
  });
});
