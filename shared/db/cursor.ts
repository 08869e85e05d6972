import * as v from 'valibot';

/**
 * Opaque page cursors: a DynamoDB LastEvaluatedKey (all key attributes are strings in this table) together
 * with the page number it leads to and a fingerprint of the query, base64url-encoded. Decoding validates the
 * shape, and a cursor is used only by the query that issued it (same partition, filters and order), so a forged,
 * stale or foreign cursor degrades to the page-number path instead of reaching DynamoDB.
 */
const CursorSchema = v.object({
  k: v.record(v.pipe(v.string(), v.regex(/^(pk|sk|gsi[1-3](pk|sk))$/)), v.pipe(v.string(), v.maxLength(512))),
  p: v.pipe(v.number(), v.integer(), v.minValue(1)),
  q: v.pipe(v.string(), v.maxLength(64)),
});

export interface DecodedCursor {
  readonly lastKey: Record<string, string>;
  readonly page: number;
  /** Fingerprint of the query the cursor belongs to; a cursor is only honoured by the same query. */
  readonly query: string;
}

export function encodeCursor(lastKey: Record<string, unknown>, page: number, query: string): string {
  return Buffer.from(JSON.stringify({ k: lastKey, p: page, q: query }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): DecodedCursor | undefined {
  try {
    const parsed = v.safeParse(CursorSchema, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success
      ? { lastKey: parsed.output.k, page: parsed.output.p, query: parsed.output.q }
      : undefined;
  } catch {
    return undefined;
  }
}
