import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';
import { db } from '../../shared/db/client.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../shared/db/client.ts';
import { idempotencyRecordKeyOf } from '../../shared/db/idempotency-store.ts';
import { getItem } from '../../shared/db/reads.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, type Feed, type FeedPage, postFeed } from '../support/feeds.ts';
import { importQuizCourse, type QuizCourse, submit } from '../support/quiz-course.ts';

/**
 * `Idempotency-Key` on writes (issue 24), through the local gateway: a replay answers the first response marked
 * `Idempotent-Replayed: true` and changes nothing; another body is 422; a repeat while the first runs is 409 with
 * `Retry-After`; a 5xx is not kept; keys are the caller's; the record expires after 24 hours (TTL attribute).
 * Faults and "still running" are produced in a gateway started in this process, whose handlers share this
 * process's DynamoDB client: a middleware on it fails, or holds, the use case's own writes (never the replay
 * store's, whose keys start with `IDEMPOTENCY#`), the only mock the project allows.
 */
const FAULT = 'idempotency-test-fault';
const record = v.record(v.string(), v.unknown());

type FeedAnswer = { feed: Feed };
type ErrorAnswer = {
  code: string;
  message: string;
  data: { status: number; params?: Record<string, string> };
};

let author: TestUser;
let other: TestUser;
let spaceId: number;
let gateway: Gateway;

beforeAll(async () => {
  [author, other] = await Promise.all([createTestUser(), createTestUser()]);
  spaceId = await createSpace({
    members: [
      [author, 'member'],
      [other, 'member'],
    ],
  });
  gateway = await startGateway({ port: 0 });
});
afterAll(() => gateway.close());
afterEach(() => {
  db().middlewareStack.remove(FAULT);
});

const newKey = () => `key-${randomBytes(8).toString('hex')}`;

const createFeed = (as: TestUser, key: string | undefined, message: string, base?: string) =>
  api<FeedAnswer & ErrorAnswer>('POST', `${base ?? ''}/feeds`, {
    as,
    body: { space_id: spaceId, message },
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });

/** The feeds of the test space carrying `message` (what the store holds, as the caller lists it). */
async function feedsWith(message: string): Promise<Feed[]> {
  const page = await api<{ feeds: FeedPage }>('GET', '/feeds', {
    as: author,
    query: { space_id: spaceId, per_page: 100 },
  });
  expect(page.status, page.text).toBe(200);
  return page.body.feeds.data.filter((feed) => String(feed.message).includes(message));
}

/** The use case's own writes (not the replay store's), as the SDK sends them. */
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);
function onUseCaseWrite(action: () => Promise<void>): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const isReplayStore = JSON.stringify(args.input).includes('IDEMPOTENCY#');
      if (WRITES.has(context.commandName ?? '') && !isReplayStore) await action();
      return next(args);
    },
    { step: 'initialize', name: FAULT },
  );
}

describe('a replayed write', () => {
  it('answers the first response again, marked, and posts once (POST /feeds)', async () => {
    const key = newKey();
    const message = `Replayed ${key}`;
    const first = await createFeed(author, key, message);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const second = await createFeed(author, key, message);
    expect(second.status, second.text).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('cache-control')).toBe('private, no-cache');
    // The id of this request, not of the first.
    expect(second.headers.get('x-request-id')).toMatch(/\S/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    expect((await feedsWith(message)).map((feed) => feed.id)).toEqual([first.body.feed.id]);
  });

  it('without a key, the same request runs twice (the header is what makes it safe)', async () => {
    const message = `Unkeyed ${newKey()}`;
    expect((await createFeed(author, undefined, message)).status).toBe(201);
    expect((await createFeed(author, undefined, message)).status).toBe(201);
    expect(await feedsWith(message)).toHaveLength(2);
  });

  it('keeps the record with the table TTL attribute set 24 hours ahead, in the caller’s partition', async () => {
    const key = newKey();
    const before = Math.floor(Date.now() / 1000);
    expect((await createFeed(author, key, `Expiry ${key}`)).status).toBe(201);
    const stored = await getItem(idempotencyRecordKeyOf(author.id, `${author.id}:${key}`), record, {
      consistent: true,
    });
    expect(stored).toBeDefined();
    expect(stored?.pk).toBe(`IDEMPOTENCY#${author.id}`);
    expect(stored?.idempotency_status).toBe('COMPLETED');
    const expires = Number(stored?.expires_at_epoch);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 24 * 3600);
  });

  it('keeps a first 4xx too: the retry answers the same refusal, replayed', async () => {
    const key = newKey();
    const path = '/feeds/999999999/react';
    const first = await api<ErrorAnswer>('POST', path, {
      as: author,
      body: { react_type: 'like' },
      headers: { 'idempotency-key': key },
    });
    expect(first.status, first.text).toBe(404);
    const second = await api<ErrorAnswer>('POST', path, {
      as: author,
      body: { react_type: 'like' },
      headers: { 'idempotency-key': key },
    });
    expect(second.status).toBe(404);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('a reused key', () => {
  it('with another body, path or method: 422 idempotency_key_reused, and nothing runs', async () => {
    const key = newKey();
    const message = `Reused ${key}`;
    const first = await createFeed(author, key, message);
    expect(first.status, first.text).toBe(201);

    const otherBody = await createFeed(author, key, `${message} (edited)`);
    expect(otherBody.status, otherBody.text).toBe(422);
    expect(otherBody.body).toMatchObject({ code: 'idempotency_key_reused', data: { status: 422 } });
    const otherPath = await api<ErrorAnswer>('POST', `/feeds/${first.body.feed.id}/comments`, {
      as: author,
      body: { message },
      headers: { 'idempotency-key': key },
    });
    expect(otherPath.status, otherPath.text).toBe(422);
    expect(otherPath.body.code).toBe('idempotency_key_reused');
    const otherMethod = await api<ErrorAnswer>('PUT', `/feeds/${first.body.feed.id}`, {
      as: author,
      body: { message: 'changed' },
      headers: { 'idempotency-key': key },
    });
    expect(otherMethod.status, otherMethod.text).toBe(422);

    expect(await feedsWith(message)).toHaveLength(1);
    expect((await feedsWith(message))[0]?.message).toBe(message);
  });

  it('by another caller is that caller’s own key: it runs', async () => {
    const key = newKey();
    const message = `Scoped ${key}`;
    const mine = await createFeed(author, key, message);
    const theirs = await createFeed(other, key, message);
    expect(mine.status).toBe(201);
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.feed.user_id).toBe(other.id);
    expect(theirs.body.feed.id).not.toBe(mine.body.feed.id);
    expect(await feedsWith(message)).toHaveLength(2);
  });
});

describe('the header', () => {
  it.each([
    ['a space', 'with space'],
    ['256 characters', 'k'.repeat(256)],
    ['a non-ASCII character', 'cl\u00e9'],
    ['a tab', 'a\tb'],
  ])('with %s: 400 rest_invalid_param naming Idempotency-Key, nothing runs', async (_what, key) => {
    const message = `Bad key ${newKey()}`;
    const response = await createFeed(author, key, message);
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { 'Idempotency-Key': expect.any(String) } },
    });
    expect(await feedsWith(message)).toHaveLength(0);
  });

  it('of 1 and of 255 visible characters is accepted', async () => {
    for (const key of ['!', `~${randomBytes(127).toString('hex')}`]) {
      const response = await createFeed(author, key.slice(0, 255), `Edge ${newKey()}`);
      expect(response.status, response.text).toBe(201);
    }
  });
});

describe('retries of the writes that hurt most', () => {
  it('a retried like does not toggle it back off', async () => {
    const feed = await postFeed(author, { space_id: spaceId });
    const key = newKey();
    const react = () =>
      api<{ data: { liked: boolean; reactions_count: number } }>('POST', `/feeds/${feed.id}/react`, {
        as: other,
        body: { react_type: 'like' },
        headers: { 'idempotency-key': key },
      });
    const first = await react();
    const retried = await react();
    expect(first.body.data).toEqual({ liked: true, reactions_count: 1 });
    expect(retried.body.data).toEqual({ liked: true, reactions_count: 1 });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const stored = await api<FeedAnswer>('GET', `/feeds/${feed.id}`, { as: other });
    expect(stored.body.feed).toMatchObject({ liked: true, reactions_count: 1 });
  });

  it('a retried quiz submission does not spend an attempt', async () => {
    const course: QuizCourse = await importQuizCourse();
    const key = newKey();
    const send = (answer: string, withKey: boolean) =>
      api<{ quiz_result: { attempt_number: number; can_retake: boolean } }>(
        'POST',
        `/courses/${course.courseId}/lessons/${course.lessons.limited}/quiz/submit`,
        {
          as: course.student,
          body: { answers: { q_choice: answer } },
          ...(withKey ? { headers: { 'idempotency-key': key } } : {}),
        },
      );
    const first = await send('five', true);
    const retried = await send('five', true);
    expect(first.status, first.text).toBe(201);
    expect(retried.status).toBe(201);
    expect(retried.body.quiz_result.attempt_number).toBe(1);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    // max_attempts is 3: the replay spent none, so two more attempts count and the fourth is refused.
    expect((await send('four', false)).body.quiz_result.attempt_number).toBe(2);
    expect((await send('four', false)).body.quiz_result).toMatchObject({
      attempt_number: 3,
      can_retake: false,
    });
    const refused = await submit(course.student, course.courseId, course.lessons.limited, {
      answers: { q_choice: 'four' },
    });
    expect(refused.status, refused.text).toBe(403);
  });
});

describe('failures and concurrency (gateway in this process)', () => {
  it('a first answer of 5xx is not kept: the retry runs', async () => {
    const key = newKey();
    const message = `Fault ${key}`;
    let failing = true;
    onUseCaseWrite(async () => {
      if (failing)
        throw Object.assign(new Error('Injected DynamoDB failure'), { name: 'InternalServerError' });
    });
    const failed = await createFeed(author, key, message, gateway.url);
    expect(failed.status, failed.text).toBe(500);
    expect(
      await getItem(idempotencyRecordKeyOf(author.id, `${author.id}:${key}`), record, { consistent: true }),
    ).toBeUndefined();

    failing = false;
    const retried = await createFeed(author, key, message, gateway.url);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await feedsWith(message)).toHaveLength(1);
  });

  it('a repeat while the first still runs: 409 request_in_progress with Retry-After; then the replay', async () => {
    const key = newKey();
    const message = `Held ${key}`;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = () => {};
    const inFlight = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let held = false;
    onUseCaseWrite(async () => {
      if (held) return;
      held = true;
      reached();
      await released;
    });
    const first = createFeed(author, key, message, gateway.url);
    await inFlight; // the first request has its record in progress and is inside its use case

    const repeat = await createFeed(author, key, message, gateway.url);
    expect(repeat.status, repeat.text).toBe(409);
    expect(repeat.body).toMatchObject({ code: 'request_in_progress', data: { status: 409 } });
    expect(Number(repeat.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    release();
    const done = await first;
    expect(done.status, done.text).toBe(201);
    const replay = await createFeed(author, key, message, gateway.url);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(done.text);
    expect(await feedsWith(message)).toHaveLength(1);
  });

  it('concurrent identical requests post once: every answer is the post or 409', async () => {
    const key = newKey();
    const message = `Concurrent ${key}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => createFeed(author, key, message)));
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.feed.id)).size).toBe(1);
    for (const answer of answers) expect([201, 409], answer.text).toContain(answer.status);
    expect(await feedsWith(message)).toHaveLength(1);
  });
});

describe('records of earlier runs (the replay store’s own conditions)', () => {
  /** Rewrites the stored record of `key`, as time or a crash would have left it. */
  async function ageRecord(key: string, values: Record<string, unknown>): Promise<void> {
    const names = Object.keys(values);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: idempotencyRecordKeyOf(author.id, `${author.id}:${key}`),
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }

  it('a run that ended without a word (in progress past its in-progress expiry) frees the key: the retry runs', async () => {
    const key = newKey();
    const message = `Crashed ${key}`;
    expect((await createFeed(author, key, message)).status).toBe(201);
    // As a function that timed out after its claim leaves it (its first post stands: it was committed).
    await ageRecord(key, { idempotency_status: 'INPROGRESS', in_progress_expiry: Date.now() - 1000 });
    const retried = await createFeed(author, key, message);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await feedsWith(message)).toHaveLength(2);
    // The retry's answer is the one kept now.
    const replay = await createFeed(author, key, message);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retried.text);
  });

  it('a record past its 24 hours (not yet removed by the TTL) no longer answers: the key runs again', async () => {
    const key = newKey();
    const message = `Expired ${key}`;
    expect((await createFeed(author, key, message)).status).toBe(201);
    await ageRecord(key, { expires_at_epoch: Math.floor(Date.now() / 1000) - 60 });
    const again = await createFeed(author, key, message);
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await feedsWith(message)).toHaveLength(2);
  });

  it('a replay store that cannot be written: 503 with Retry-After, and nothing runs', async () => {
    const key = newKey();
    const message = `Store down ${key}`;
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutItemCommand' && JSON.stringify(args.input).includes('IDEMPOTENCY#')) {
          throw Object.assign(new Error('Injected store failure'), { name: 'InternalServerError' });
        }
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const refused = await createFeed(author, key, message, gateway.url);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'service_unavailable', data: { status: 503 } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await feedsWith(message)).toHaveLength(0);
  });
});
