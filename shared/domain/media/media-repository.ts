import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db } from '../../db/client.ts';
import { uploaderMedia, uploaderMediaBySource, uploaderMediaByType } from '../../db/keys/media.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import type { Partition } from '../../db/partition.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { getItem, partitionQueryInput } from '../../db/reads.ts';
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
  /**
   * What the caller may see besides its own: undefined for everything (the uploader, community moderators); else
   * `public` items and the `members` items of these spaces (media-scope.ts), at most 99 (one IN list).
   */
  readonly visibleIn?: { readonly memberSpaceIds: readonly number[] } | undefined;
}

/** The largest IN list DynamoDB takes is 100 operands. */
export const MAX_MEDIA_FILTER_SPACES = 99;

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
  }
  if (filter.visibleIn !== undefined) {
    names['#visibility'] = 'visibility';
    values[':public'] = 'public';
    const spaces = filter.visibleIn.memberSpaceIds.slice(0, MAX_MEDIA_FILTER_SPACES);
    if (spaces.length === 0) {
      terms.push('#visibility = :public');
    } else {
      names['#vspace'] = 'visibility_space_id';
      values[':members'] = 'members';
      const operands = spaces.map((spaceId, index) => {
        values[`:s${index}`] = spaceId;
        return `:s${index}`;
      });
      terms.push(
        `(#visibility = :public OR (#visibility = :members AND #vspace IN (${operands.join(', ')})))`,
      );
    }
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

/** The uploader's media counters (`media_total`, `media_type:<mime>`, `media_source:<source>`, `media_scope…`). */
export async function findMediaCounters(userId: number): Promise<Record<string, number>> {
  const counters = (await getItem(userStatsKey(userId), CountersSchema)) ?? {};
  return Object.fromEntries(Object.entries(counters).filter(([name]) => name.startsWith('media_')));
}

/**
 * How many items a filter no counter serves selects (a MIME type with a source): COUNT queries over the type's partition, O(the member's media of that type), never the table.
 */
export async function countMemberMedia(filter: MediaListFilter): Promise<number> {
  const { partition, filter: where } = selection(filter);
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        ...partitionQueryInput(partition, where),
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
}
