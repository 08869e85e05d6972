import * as v from 'valibot';
import { uploadRateKey } from '../../db/keys/media.ts';
import { getItem } from '../../db/reads.ts';
import { putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';

/** Uploads allowed in any sliding window of `UPLOAD_WINDOW_MS`. */
export const UPLOADS_PER_WINDOW = 10;
export const UPLOAD_WINDOW_MS = 60_000;

const RateItemSchema = v.looseObject({ count: v.number() });
type RateItem = v.InferOutput<typeof RateItemSchema> & Record<string, unknown>;

const slotName = (n: number) => `slot_${n % UPLOADS_PER_WINDOW}`;

/**
 * Takes one upload slot of the caller's sliding window (`true`), or answers how long until one frees when the
 * last `UPLOADS_PER_WINDOW` uploads all fell within the window. The item holds the running `count` and, in slot `count mod 10`, the time of
 * each of the last ten uploads: upload n+1 may go ahead only if upload n-9 (the slot it overwrites) is older than
 * the window. The write is conditioned on the count it read, so of two concurrent takers one retries with the
 * new count: exact across concurrent Lambdas, with no fixed-window edge where 20 could pass in a minute.
 */
export async function takeUploadSlot(
  userId: number,
  now = Date.now(),
): Promise<true | { retryAfterMs: number }> {
  const key = uploadRateKey(userId);
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = (await getItem(key, RateItemSchema, { consistent: true })) as RateItem | undefined;
    const count = current?.count ?? 0;
    const overwritten = current?.[slotName(count)];
    // Refused: the slot frees when the upload it holds leaves the window.
    if (typeof overwritten === 'number' && overwritten > now - UPLOAD_WINDOW_MS) {
      return { retryAfterMs: overwritten + UPLOAD_WINDOW_MS - now };
    }
    const item = {
      ...(current ?? {}),
      ...key,
      entity: 'media_rate',
      count: count + 1,
      [slotName(count)]: now,
      // Idle limiters go away by TTL.
      expires_at_epoch: Math.ceil((now + 2 * UPLOAD_WINDOW_MS) / 1000),
    };
    const condition =
      current === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#count = :count',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':count': count },
          };
    const outcome = await transactWriteIfConditionsHold([putAction(item, { condition })]);
    if (outcome.written) return true;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * (attempt + 1)));
  }
  // Twenty lost races in a row: the limiter is that busy; a second is a fair wait.
  return { retryAfterMs: 1000 };
}
