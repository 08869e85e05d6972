import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../../db/client.ts';
import { uploaderMedia, uploaderMediaBySource, uploaderMediaByType } from '../../db/keys/media.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import { keyCondition, type Partition } from '../../db/partition.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { getItem } from '../../db/reads.ts';
import { type MediaItem, MediaItemSchema } from './media-item.ts';

/**
 * Reading a member's media (ACCESS_PATTERNS.md, "Media"): the three index partitions `storedMedia` fills for active
 * items (all of an uploader; by object source; by MIME type), newest first, and the counters `mediaCounts` moves
 * on the uploader's stats item. Uploads write through media-item.ts; nothing here writes.
 */

export interface MediaListFilter {
  readonly userId: number;
  readonly fileType?: string | undefined;
  readonly objectSource?: string | undefined;
  /** Only items attached to an object (callers other than the uploader never see unattached ones). */
  readonly attachedOnly: boolean;
}

/** The narrowest partition for the filter: by type, else by source, else all; what it cannot select is filtered. */
function selection(filter: MediaListFilter) {
  const partition: Partition =
    filter.fileType !== undefined
      ? uploaderMediaByType(filter.userId, filter.fileType)
      : filter.objectSource !== undefined
        ? uploaderMediaBySource(filter.userId, filter.objectSource)
        : uploaderMedia(filter.userId);
  const terms: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.fileType !== undefined && filter.objectSource !== undefined) {
    terms.push('#source = :source');
    names['#source'] = 'object_source';
    values[':source'] = filter.objectSource;
  } else if (filter.attachedOnly && filter.objectSource === undefined) {
    terms.push('attribute_type(#source, :string)');
    names['#source'] = 'object_source';
    values[':string'] = 'S';
  }
  const expression = terms.join(' AND ');
  return { partition, filter: expression === '' ? undefined : { expression, names, values } };
}

/** One page of the member's active media for the filter, newest first, with the cursor to the next page. */
export function queryMemberMediaPage(
  filter: MediaListFilter,
  paging: { page: number; perPage: number; total: number },
): Promise<PageResult<MediaItem>> {
  return queryPage({ ...selection(filter), schema: MediaItemSchema, ascending: false, ...paging });
}

const CountersSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(
    (raw): Record<string, number> =>
      Object.fromEntries(
        Object.entries(raw).flatMap(([name, value]) => (typeof value === 'number' ? [[name, value]] : [])),
      ),
  ),
);

/** The uploader's media counters (`media_total`, `media_type:<mime>`, `media_source:<source>`). */
export async function findMediaCounters(userId: number): Promise<Record<string, number>> {
  const counters = (await getItem(userStatsKey(userId), CountersSchema)) ?? {};
  return Object.fromEntries(Object.entries(counters).filter(([name]) => name.startsWith('media_')));
}

/**
 * How many items a filter no counter serves selects (a MIME type with a source, or a MIME type attached to
 * anything): COUNT queries over the type's partition, O(the member's media of that type), never the table.
 */
export async function countMemberMedia(filter: MediaListFilter): Promise<number> {
  const { partition, filter: where } = selection(filter);
  const condition = keyCondition(partition);
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...(partition.index ? { IndexName: partition.index } : {}),
        KeyConditionExpression: condition.expression,
        ExpressionAttributeNames: { ...condition.names, ...where?.names },
        ExpressionAttributeValues: { ...condition.values, ...where?.values },
        ...(where ? { FilterExpression: where.expression } : {}),
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
}
