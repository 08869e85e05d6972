/**
 * The one table, declared once. CDK (infra/constructs/app-table.ts), the local stack and every test create it
 * from this definition, so the cloud and the emulator cannot drift.
 *
 * Generic attribute names keep the table free of entity knowledge; each index lists the access patterns it
 * serves (see ACCESS_PATTERNS.md beside this file for the full per-endpoint map).
 */
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** The access patterns this index exists for; keep in step with ACCESS_PATTERNS.md. */
  readonly patterns: readonly string[];
}

export const GLOBAL_INDEXES = [
  {
    name: 'GSI1',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
    patterns: [
      'notifications of a recipient, newest first (all on the notification item; one type on its type copy)',
      'topics in display order (serial, id)',
      'topics whose title contains a trigram, in display order (title search; a third of the trigrams)',
      "feeds of an author, newest first (on the post's listing entry)",
      'comments of an author, newest first',
      'likes of a feed, newest first (on the post reaction item)',
      'quiz submissions of a course by time, one result range each (attempt slot); of a lesson (id pointer); every result (list copies)',
      'media of an uploader, newest first',
      'spaces a user belongs to (membership by user)',
      'invitations of a space, newest first',
    ],
  },
  {
    name: 'GSI2',
    partitionKey: 'gsi2pk',
    sortKey: 'gsi2sk',
    patterns: [
      'notifications of a recipient in one read state (unread / read), newest first; re-keyed on mark-read',
      "feeds of a space, newest first (on the post's listing entry)",
      'members of a space by role',
      'comments of a feed, oldest first',
      'topics under one parent in display order',
      'topics whose title contains a trigram, in display order (title search; a third of the trigrams)',
      'quiz submissions of a course by score, one result range each (attempt slot); of a lesson (id pointer); every result (list copies)',
      'media of an uploader attached to one object source',
    ],
  },
  {
    name: 'GSI3',
    partitionKey: 'gsi3pk',
    sortKey: 'gsi3sk',
    patterns: [
      'notifications of a recipient of one type in one read state, newest first',
      'feeds carrying a topic, newest first',
      'unpublished feeds carrying a topic (found by a topic delete)',
      'user search by lower-cased name prefix (display name, login, e-mail)',
      'media of an uploader by MIME type',
      'comments on the lessons of a course, newest first',
      'topics with one status in display order',
      'topics whose title contains a trigram, in display order (title search; a third of the trigrams)',
      "all published feeds, newest first (sparse timeline over 4 shards FEEDS#<n> on the post's listing entry, merged on read)",
      "every member's unpublished feeds in one status, newest first (4 shards FEEDS#<STATUS>#<n> on the post's listing entry, merged on read)",
      'quiz submissions of a course by student name, one result range each (attempt slot); of a lesson (id pointer); every result (list copies)',
    ],
  },
] as const satisfies readonly IndexDefinition[];

export type IndexName = (typeof GLOBAL_INDEXES)[number]['name'];

/** Attributes that are keys somewhere; all are strings. */
export const KEY_ATTRIBUTES = [
  TABLE_KEY.partitionKey,
  TABLE_KEY.sortKey,
  ...GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]),
] as const;

/** Attribute carrying an epoch-seconds expiry; DynamoDB's TTL deletes expired items (pending uploads, locks). */
export const TTL_ATTRIBUTE = 'expires_at_epoch';

/** The CreateTable input for DynamoDB Local and tests (CDK builds the same shape through its own construct). */
export function createTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: KEY_ATTRIBUTES.map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
