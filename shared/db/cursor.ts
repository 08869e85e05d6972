import * as v from 'valibot';

/**
 * Opaque page cursors: a DynamoDB LastEvaluatedKey (all key attributes are strings in this table) together
 * with the page number it leads to, base64url-encoded. Decoding validates the shape, so a forged or truncated
 * cursor is a 400, never a DynamoDB error.
 */
const CursorSchema = v.object({
  k: v.record(v.pipe(v.string(), v.regex(/^(pk|sk|gsi[1-3](pk|sk))$/)), v.pipe(v.string(), v.maxLength(512))),
  p: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export interface DecodedCursor {
  readonly lastKey: Record<string, string>;
  readonly page: number;
}

export function encodeCursor(lastKey: Record<string, unknown>, page: number): string {
  return Buffer.from(JSON.stringify({ k: lastKey, p: page }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): DecodedCursor | undefined {
  try {
    const parsed = v.safeParse(CursorSchema, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { lastKey: parsed.output.k, page: parsed.output.p } : undefined;
  } catch {
    return undefined;
  }
}
