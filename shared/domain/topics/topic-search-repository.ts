import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../../db/client.ts';
import { TOPIC_SEARCH_INDEXES, topicsContainingGram } from '../../db/keys/topics.ts';
import { keyCondition } from '../../db/partition.ts';
import { parseItem } from '../../db/reads.ts';
import type { TopicItem } from './topic-item.ts';
import { findTopicsByIds } from './topic-lookups.ts';
import type { TopicListFilter } from './topic-repository.ts';
import { trigramsOf } from './topic-search-entries.ts';

/**
 * The title search over the trigram index (topic-search-entries.ts; ACCESS_PATTERNS.md, "Topics", `search=`).
 * Every match carries every trigram of the term, so the matches of one trigram's list, filtered by the whole
 * term, are all the matches. Which trigram is the rarest is not known in advance, so up to PROBES of them are
 * read at once, PROBE_PAGE entries of each index each; a list that ends within that page answers exactly. Otherwise the list
 * that matched best so far (matches per entry read) is read to its end. Page 1 therefore costs
 * PROBES × 3 small Queries plus the entries of one trigram list: it grows with the topics sharing a trigram with
 * the term, never with the others, and the total stays exact.
 */

/** Trigrams of the term read at once (spread over the term). */
const PROBES = 4;
/** Entries each probe reads first in each index; a trigram on fewer topics answers from this read alone. */
const PROBE_PAGE = 40;

const MatchSchema = v.object({
  topic_id: v.pipe(v.number(), v.integer()),
  serial: v.pipe(v.number(), v.integer()),
});
type Match = v.InferOutput<typeof MatchSchema>;

/** One index's list of one trigram, read page by page with the term (and the list filters) as a filter. */
interface ListCursor {
  readonly index: (typeof TOPIC_SEARCH_INDEXES)[number];
  startKey: Record<string, unknown> | undefined;
  done: boolean;
}

interface Probe {
  readonly gram: string;
  readonly lists: ListCursor[];
  readonly matches: Match[];
  scanned: number;
}

/** Up to PROBES distinct trigrams of the term, spread from its start to its end. */
function probeGrams(term: string): string[] {
  const grams = trigramsOf(term);
  if (grams.length <= PROBES) return grams;
  return Array.from(
    { length: PROBES },
    (_, i) => grams[Math.round((i * (grams.length - 1)) / (PROBES - 1))] as string,
  );
}

/**
 * The topics of the filtered list whose lower-cased title contains `term` (lower-cased, at least three
 * characters): one page in display order (serial, then id) and the exact number of matches.
 */
export async function searchTopicsByTrigrams(
  filter: TopicListFilter,
  term: string,
  page: { offset: number; limit: number },
): Promise<{ items: TopicItem[]; total: number }> {
  const probes: Probe[] = probeGrams(term).map((gram) => ({
    gram,
    lists: TOPIC_SEARCH_INDEXES.map((index) => ({ index, startKey: undefined, done: false })),
    matches: [],
    scanned: 0,
  }));
  await Promise.all(probes.map((probe) => readProbe(probe, filter, term, PROBE_PAGE)));
  let answer = probes.find((probe) => probe.lists.every((list) => list.done));
  if (!answer) {
    // Every trigram is on more than PROBE_PAGE topics: finish the one whose entries matched best so far.
    answer = probes.reduce((best, probe) =>
      probe.matches.length / Math.max(probe.scanned, 1) > best.matches.length / Math.max(best.scanned, 1)
        ? probe
        : best,
    );
    await readProbe(answer, filter, term, undefined);
  }
  const ordered = [...answer.matches].sort((a, b) => a.serial - b.serial || a.topic_id - b.topic_id);
  const pageIds = ordered.slice(page.offset, page.offset + page.limit).map((match) => match.topic_id);
  const topics = new Map((await findTopicsByIds(pageIds)).map((topic) => [topic.id, topic]));
  const items = pageIds.flatMap((id) => topics.get(id) ?? []);
  return { items, total: ordered.length };
}

/** Reads each unfinished list of the probe: `limit` entries (one Query each), or to its end when undefined. */
async function readProbe(
  probe: Probe,
  filter: TopicListFilter,
  term: string,
  limit: number | undefined,
): Promise<void> {
  await Promise.all(
    probe.lists
      .filter((list) => !list.done)
      .map(async (list) => {
        do {
          const result = await db().send(searchQuery(probe.gram, list, filter, term, limit));
          for (const item of result.Items ?? []) probe.matches.push(parseItem(MatchSchema, item));
          probe.scanned += result.ScannedCount ?? 0;
          list.startKey = result.LastEvaluatedKey;
          list.done = list.startKey === undefined;
        } while (limit === undefined && !list.done);
      }),
  );
}

function searchQuery(
  gram: string,
  list: ListCursor,
  filter: TopicListFilter,
  term: string,
  limit: number | undefined,
) {
  const partition = topicsContainingGram(gram, list.index);
  const condition = keyCondition(partition);
  const names: Record<string, string> = {
    ...condition.names,
    '#title': 'title_lc',
    '#id': 'topic_id',
    '#serial': 'serial',
  };
  const values: Record<string, unknown> = { ...condition.values, ':term': term };
  const filters = ['contains(#title, :term)'];
  if (filter.status !== undefined) {
    names['#status'] = 'status';
    values[':status'] = filter.status;
    filters.push('#status = :status');
  }
  if (filter.parentId !== undefined) {
    names['#parent'] = 'parent_key';
    values[':parent'] = filter.parentId ?? 0;
    filters.push('#parent = :parent');
  }
  return new QueryCommand({
    TableName: tableName(),
    IndexName: partition.index,
    KeyConditionExpression: condition.expression,
    FilterExpression: filters.join(' AND '),
    ProjectionExpression: '#id, #serial',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ExclusiveStartKey: list.startKey,
    ...(limit === undefined ? {} : { Limit: limit }),
  });
}
