import { createHmac, timingSafeEqual } from 'node:crypto';
import { readSecret } from '../../config/secrets.ts';

/**
 * The token of a digest e-mail's unsubscribe link: the member's id and an HMAC-SHA-256 under a key derived from
 * the stage's `cursorKey` secret for this purpose only. Stateless (nothing stored per e-mail) and unforgeable; it
 * can only ever set that member's digest to `never`.
 */
const PURPOSE = 'digest-unsubscribe:v1';

async function signature(userId: number): Promise<string> {
  const key = createHmac('sha256', await readSecret('cursorKey'))
    .update(PURPOSE)
    .digest();
  return createHmac('sha256', key).update(String(userId)).digest('base64url');
}

export async function unsubscribeToken(userId: number): Promise<string> {
  return `${userId}.${await signature(userId)}`;
}

/** The member the token names, or undefined when it is not a token this service signed. */
export async function verifyUnsubscribeToken(token: string): Promise<number | undefined> {
  // User ids have up to 16 digits (time ids, shared/db/ids.ts), always safe integers.
  const [, idText, mac] = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token) ?? [];
  if (idText === undefined || mac === undefined) return undefined;
  const userId = Number(idText);
  if (!Number.isSafeInteger(userId)) return undefined;
  const expected = Buffer.from(await signature(userId));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : undefined;
}
