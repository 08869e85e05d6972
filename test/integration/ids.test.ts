import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdTaken, newId, TIME_ID_FLOOR, withFreshId } from '../../shared/db/ids.ts';
import { isAppError } from '../../shared/errors/app-error.ts';
import { putPendingMedia } from '../../shared/domain/media/media-write-repository.ts';
import type { MediaItem } from '../../shared/domain/media/media-item.ts';
import { buildUserItem, createUser } from '../../shared/domain/users/create-user.ts';
import { findUserById } from '../../shared/domain/users/index.ts';
import { insertUser } from '../../shared/domain/users/user-repository.ts';

/**
 * Ids drawn per create against DynamoDB Local: the creating put's `attribute_not_exists` is the uniqueness guard,
 * a taken id (and only a taken id) draws another, and a burst of concurrent creates gets distinct ids.
 */
const tag = () => randomBytes(4).toString('hex');

describe('ids drawn per create', () => {
  it('a burst of 100 concurrent creates: 100 users, 100 distinct time ids, each stored under its own', async () => {
    const t = tag();
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        createUser({ login: `burst_${t}_${i}`, email: `b${i}.${t}@example.com` }),
      ),
    );
    const ids = created.map((user) => user.id);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) expect(id).toBeGreaterThanOrEqual(TIME_ID_FLOOR);
    const stored = await Promise.all(ids.map((id) => findUserById(id, { consistent: true })));
    expect(stored.map((user) => user?.username)).toEqual(created.map((user) => user.username));
  });

  it('a drawn id that is taken is refused by the guard and drawn again; the owner of the id is untouched', async () => {
    const t = tag();
    const first = await createUser({ login: `first_${t}`, email: `first.${t}@example.com` });
    const drawn = [first.id, newId()];
    const tried: number[] = [];
    const id = await withFreshId(
      async (id) => {
        tried.push(id);
        const user = buildUserItem(
          id,
          { login: `second_${t}`, email: `second.${t}@example.com` },
          `second_${t}`,
          `second.${t}@example.com`,
        );
        await insertUser(user);
        return id;
      },
      () => drawn.shift() as number,
    );
    expect(tried).toHaveLength(2);
    expect(tried[0]).toBe(first.id);
    expect(id).toBe(tried[1]);
    expect((await findUserById(first.id, { consistent: true }))?.username).toBe(`first_${t}`);
    expect((await findUserById(id, { consistent: true }))?.username).toBe(`second_${t}`);
  });

  it('another failed condition is not a taken id: a taken login answers 409 at once, whatever the id', async () => {
    const t = tag();
    const first = await createUser({ login: `login_${t}`, email: `login.${t}@example.com` });
    let draws = 0;
    const outcome = await withFreshId(
      async (id) => {
        await insertUser(
          buildUserItem(
            id,
            { login: `login_${t}`, email: `other.${t}@example.com` },
            `login_${t}`,
            `other.${t}@example.com`,
          ),
        );
      },
      () => {
        draws++;
        return first.id; // taken as well: the login still decides
      },
    ).catch((error: unknown) => error);
    expect(isAppError(outcome) && outcome.code).toBe('existing_user_login');
    expect(draws).toBe(1);
  });

  it('a pending upload under a taken id is IdTaken, and nothing is overwritten', async () => {
    const id = newId();
    const now = new Date().toISOString();
    const item = (userId: number, name: string): MediaItem => ({
      id,
      user_id: userId,
      file_name: name,
      file_type: 'image/png',
      file_size: 10,
      s3_key: `pending/${id}`,
      thumbnail_key: null,
      file_url: '',
      thumbnail_url: null,
      width: null,
      height: null,
      object_source: null,
      object_id: null,
      visibility: 'uploader',
      visibility_space_id: null,
      status: 'pending',
      created_at: now,
      updated_at: now,
    });
    const expires = Math.floor(Date.now() / 1000) + 3600;
    await putPendingMedia(item(1, 'a.png'), expires);
    await expect(putPendingMedia(item(2, 'b.png'), expires)).rejects.toBeInstanceOf(IdTaken);
  });
});
