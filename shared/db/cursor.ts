import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { readSecret } from '../config/secrets.ts';

/**
 * Opaque page cursors. A cursor holds a DynamoDB LastEvaluatedKey, the page it leads to and a fingerprint of the
 * query that issued it, encrypted and authenticated with AES-256-GCM under the stage's cursor key: clients cannot
 * read the table's key layout from it, and a forged, truncated or altered cursor fails authentication, so it is
 * refused before anything reaches DynamoDB.
 *
 * Layout: base64url(iv[12] | tag[16] | ciphertext).
 */
const KeySchema = v.record(
  v.pipe(v.string(), v.regex(/^(pk|sk|gsi[1-9](pk|sk))$/)),
  v.pipe(v.string(), v.maxLength(1024)),
);
/** One position per merged source: the last key consumed, `null` before the first, `end` once exhausted. */
const PositionsSchema = v.pipe(v.array(v.union([KeySchema, v.null(), v.literal('end')])), v.maxLength(20));

const CursorSchema = v.object({
  k: v.union([KeySchema, PositionsSchema]),
  p: v.pipe(v.number(), v.integer(), v.minValue(1)),
  q: v.pipe(v.string(), v.maxLength(64)),
  n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export type SourcePosition = Record<string, string> | null | 'end';

export interface DecodedCursor {
  /** A LastEvaluatedKey (one partition), or one position per source (a merge of partitions). */
  readonly lastKey: Record<string, string> | SourcePosition[];
  readonly page: number;
  /** Fingerprint of the query the cursor belongs to; a cursor is only honoured by the same query. */
  readonly query: string;
  /** How many items the pages before it listed, for lists whose pages are not all full (the space user search). */
  readonly listed?: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

async function cursorKey(): Promise<Buffer> {
  // The secret may be any string; hashing gives the 32 bytes AES-256 needs.
  return createHash('sha256')
    .update(await readSecret('cursorKey'))
    .digest();
}

export async function encodeCursor(cursor: DecodedCursor): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(), iv);
  const plain = JSON.stringify({
    k: cursor.lastKey,
    p: cursor.page,
    q: cursor.query,
    ...(cursor.listed === undefined ? {} : { n: cursor.listed }),
  });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The cursor's contents, or undefined when it is not one this service issued (forged, altered, truncated). */
export async function decodeCursor(cursor: string): Promise<DecodedCursor | undefined> {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await cursorKey(), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    const parsed = v.safeParse(CursorSchema, JSON.parse(plain.toString('utf8')));
    return parsed.success
      ? {
          lastKey: parsed.output.k,
          page: parsed.output.p,
          query: parsed.output.q,
          ...(parsed.output.n === undefined ? {} : { listed: parsed.output.n }),
        }
      : undefined;
  } catch {
    return undefined;
  }
}
