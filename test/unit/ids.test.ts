import { describe, expect, it } from 'vitest';
import {
  COUNTER_ID_CEILING,
  ID_EPOCH_MS,
  idTimeMs,
  IdTaken,
  newId,
  TIME_ID_FLOOR,
  withFreshId,
} from '../../shared/db/ids.ts';
import { pad, timeSort } from '../../shared/db/keys/sort.ts';

/** Time-ordered ids (shared/db/ids.ts): their layout, their order, and the retry on a taken id. */
describe('time ids', () => {
  it('are safe 16-digit integers from the epoch until 2095, above every counter id', () => {
    const last = ID_EPOCH_MS + 2 ** 41 - 1;
    for (const at of [ID_EPOCH_MS, Date.now(), last]) {
      const id = newId(at);
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(String(id)).toHaveLength(16);
      expect(id).toBeGreaterThanOrEqual(TIME_ID_FLOOR);
      expect(idTimeMs(id)).toBe(at);
    }
    expect(new Date(last).getUTCFullYear()).toBe(2095);
    expect(COUNTER_ID_CEILING).toBeLessThan(TIME_ID_FLOOR);
    expect(() => newId(ID_EPOCH_MS - 1)).toThrow();
    expect(() => newId(last + 1)).toThrow();
    expect(idTimeMs(12)).toBeUndefined();
  });

  it('grow with creation time: every id of a later millisecond is larger', () => {
    const now = Date.now();
    for (let ms = 0; ms < 50; ms++) {
      const earlier = Array.from({ length: 20 }, () => newId(now + ms));
      const later = Array.from({ length: 20 }, () => newId(now + ms + 1));
      expect(Math.max(...earlier)).toBeLessThan(Math.min(...later));
    }
  });

  it('spread within one millisecond (random low bits)', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 200 }, () => newId(at)));
    expect(ids.size).toBeGreaterThan(150);
  });

  it('sort keys: padded counter ids and time ids sort as numbers, without re-keying stored items', () => {
    const ids = [1, 42, 99_999_999_999, newId(ID_EPOCH_MS), newId(), newId(Date.now() + 1000)].sort(
      (a, b) => a - b,
    );
    const byString = [...ids].sort((a, b) => (pad(a) < pad(b) ? -1 : pad(a) > pad(b) ? 1 : 0));
    expect(byString).toEqual(ids);
    // A time sort value with the same instant orders by id too, counter ids first.
    const at = '2026-11-26T12:00:00.000Z';
    expect(timeSort(at, 99_999_999_999) < timeSort(at, newId())).toBe(true);
  });
});

describe('withFreshId', () => {
  it('draws again only when the create reports the id taken', async () => {
    const drawn = [TIME_ID_FLOOR + 1, TIME_ID_FLOOR + 2, TIME_ID_FLOOR + 3];
    const tried: number[] = [];
    const id = await withFreshId(
      async (id) => {
        tried.push(id);
        if (id !== TIME_ID_FLOOR + 3) throw new IdTaken(id);
        return id;
      },
      () => drawn.shift() as number,
    );
    expect(id).toBe(TIME_ID_FLOOR + 3);
    expect(tried).toEqual([TIME_ID_FLOOR + 1, TIME_ID_FLOOR + 2, TIME_ID_FLOOR + 3]);
  });

  it('passes every other failure through at once', async () => {
    let calls = 0;
    await expect(
      withFreshId(async () => {
        calls++;
        throw new Error('slug taken');
      }),
    ).rejects.toThrow('slug taken');
    expect(calls).toBe(1);
  });

  it('gives up after five taken ids', async () => {
    let calls = 0;
    await expect(
      withFreshId(async (id) => {
        calls++;
        throw new IdTaken(id);
      }),
    ).rejects.toBeInstanceOf(IdTaken);
    expect(calls).toBe(5);
  });
});
