import * as v from 'valibot';
import { allTopics, topicKey, topicReadCopies } from '../../db/keys/topics.ts';
import { itemKeyId } from '../../db/partition.ts';
import { batchGetRawItems, parseItem, queryAll } from '../../db/reads.ts';
import { replicaKeys } from '../../db/replicated-item.ts';
import { sameItem } from '../../db/same-item.ts';
import { putsIfUnchangedSince } from '../../db/transact.ts';
import { storedTopicCopies, TopicItemSchema } from './topic-item.ts';

export interface TopicReadCopiesReport {
  /** Topics read. */
  topics: number;
  /** Read copies written (four per topic of an older stage). */
  items_written: number;
  changed_meanwhile: number;
}

const TopicIdSchema = v.object({ id: v.pipe(v.number(), v.integer()) });

/** Topics per consistent BatchGetItem: the topic item and its four copies, five keys each. */
const TOPICS_PER_READ = 20;

/**
 * The topics' part of the operator's `storage:upgrade`: every topic gets the read copies (`topicReadCopies`) that
 * reads by id take, which topics written before them lack (until then such a topic is read from its item, one more
 * read). Topic by topic in display order (GSI1 `allTopics`, no Scan), each group's items and copies read in one
 * consistent BatchGetItem; a topic whose copies are missing or differ is written by a transaction of its own,
 * conditioned on the topic item's `updated_at` as read (every topic write sets it and writes the copies too), so
 * a concurrent change is never overwritten: it is reported as `changed_meanwhile`. A second run writes nothing.
 */
export async function upgradeTopicReadCopies(options: { dryRun: boolean }): Promise<TopicReadCopiesReport> {
  const report: TopicReadCopiesReport = { topics: 0, items_written: 0, changed_meanwhile: 0 };
  for await (const page of queryAll(allTopics(), TopicIdSchema)) {
    for (let start = 0; start < page.length; start += TOPICS_PER_READ) {
      const ids = page.slice(start, start + TOPICS_PER_READ).map((topic) => topic.id);
      const keys = ids.flatMap((id) => [topicKey(id), ...replicaKeys(topicReadCopies(id))]);
      const found = new Map((await batchGetRawItems(keys, true)).map((item) => [itemKeyId(item), item]));
      for (const id of ids) {
        const raw = found.get(itemKeyId(topicKey(id)));
        // Deleted since the index listed it: its delete left its copies as they must be.
        if (!raw) continue;
        report.topics++;
        const topic = parseItem(TopicItemSchema, raw);
        const stale = storedTopicCopies(topic).filter((copy) => !sameItem(found.get(itemKeyId(copy)), copy));
        if (stale.length === 0) continue;
        if (options.dryRun || (await putsIfUnchangedSince(topicKey(id), topic.updated_at, stale)))
          report.items_written += stale.length;
        else report.changed_meanwhile++;
      }
    }
  }
  return report;
}
