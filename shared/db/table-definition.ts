/**
 * The one table, declared once. CDK (infra/constructs/app-table.ts), the local stack and every test create it
 * from this definition, so the cloud and the emulator cannot drift.
 *
 * Generic attribute names keep the table free of entity knowledge; what each index serves is registered once, in
 * ACCESS_PATTERNS.md beside this file ("Indexes and the patterns they serve", and the per-endpoint map).
 */
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export const GLOBAL_INDEXES = [
  {
    name: 'GSI1',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
  },
  {
    name: 'GSI2',
    partitionKey: 'gsi2pk',
    sortKey: 'gsi2sk',
  },
  {
    name: 'GSI3',
    partitionKey: 'gsi3pk',
    sortKey: 'gsi3sk',
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
