import { waitForNotificationCount } from '../support/notifications.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitNotification } from '../../shared/domain/notifications/index.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from '../support/api.ts';

/**
 * Paging faults answer 4xx, never 500 (issue 7, item 4): page numbers far past the end, and cursors that were
 * forged, altered, cut, or issued for another list. A cursor is opaque: it never carries table keys in clear.
 */
type Paginator = {
  current_page: number;
  data: Array<{ id: number; user_id: number }>;
  total: number;
  next_page_url: string | null;
};
type ListBody = { notifications: Paginator };
type ErrorBody = { code: string; message: string; data: { status: number; params: Record<string, string> } };

const TOTAL = 7;

async function emitSome(recipient: TestUser, count: number) {
  for (let index = 0; index < count; index += 1) {
    await emitNotification({
      recipientId: recipient.id,
      type: index % 2 === 0 ? 'space_join' : 'mention',
      actorId: null,
      title: `Paging ${index}`,
      message: 'For the paging tests',
      actionUrl: '/spaces/1',
      objectId: index + 1,
      objectType: 'space',
    });
  }
  // Stored by the notify worker a moment later.
  await waitForNotificationCount(recipient, count);
}

const list = (as: TestUser, query: Record<string, string | number | boolean>) =>
  api<ListBody & ErrorBody>('GET', '/notifications', { as, query });

const cursorOf = (url: string | null): string => {
  const cursor = url === null ? null : new URL(url).searchParams.get('cursor');
  if (!cursor) throw new Error(`no cursor in ${url}`);
  return cursor;
};

function expectInvalidCursor(response: ApiResponse<ErrorBody>) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.code).toBe('rest_invalid_param');
  expect(response.body.data.status).toBe(400);
  expect(Object.keys(response.body.data.params)).toEqual(['cursor']);
}

let owner: TestUser;
let stranger: TestUser;
/** The owner's second page as `page=2` alone gives it. */
let secondPageIds: number[];
let ownerCursor: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createTestUser(), createTestUser()]);
  await Promise.all([emitSome(owner, TOTAL), emitSome(stranger, TOTAL)]);
  const first = await list(owner, { per_page: 3 });
  expect(first.status).toBe(200);
  ownerCursor = cursorOf(first.body.notifications.next_page_url);
  secondPageIds = (await list(owner, { per_page: 3, page: 2 })).body.notifications.data.map(
    (item) => item.id,
  );
  expect(secondPageIds).toHaveLength(3);
});

describe('page numbers far past the end', () => {
  it.each([
    [{}],
    [{ is_read: false }],
    [{ is_read: true }],
    [{ type: 'mention' }],
    [{ type: 'space_join', is_read: false, order: 'asc' }],
    [{ orderby: 'id' }],
  ])('page=21474838&per_page=100 with %o → 200 with empty data', async (filters) => {
    const response = await list(owner, { ...filters, page: 21474838, per_page: 100 });
    expect(response.status, response.text).toBe(200);
    expect(response.body.notifications).toMatchObject({
      current_page: 21474838,
      data: [],
      next_page_url: null,
    });
  });

  it('the largest page the contract accepts → 200 with empty data; one digit more → 400 naming page', async () => {
    const largest = await list(owner, { page: '999999999999999', per_page: 100 });
    expect(largest.status, largest.text).toBe(200);
    expect(largest.body.notifications.data).toEqual([]);
    const tooLong = await list(owner, { page: '1000000000000000', per_page: 100 });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.data.params)).toEqual(['page']);
  });

  it('a far page with a cursor the list does not honour → an empty page or 400 naming page, never a 500', async () => {
    // The cursor belongs to another per_page, so the page number alone applies: answered empty when the list's
    // total is known, refused when a jump that far would have to skip too many keys.
    const response = await list(owner, { page: 21474838, per_page: 100, cursor: ownerCursor });
    expect([200, 400], response.text).toContain(response.status);
    if (response.status === 200) expect(response.body.notifications.data).toEqual([]);
    else expect(Object.keys(response.body.data.params)).toEqual(['page']);
  });
});

describe('cursors', () => {
  it('leads to the next page; its bytes carry no table key in clear text', async () => {
    const followed = await list(owner, { per_page: 3, page: 2, cursor: ownerCursor });
    expect(followed.body.notifications.data.map((item) => item.id)).toEqual(secondPageIds);
    const bytes = Buffer.from(ownerCursor, 'base64url');
    for (const text of [bytes.toString('latin1'), bytes.toString('utf8')]) {
      for (const secret of [`USER#${owner.id}`, 'NOTIFS', 'NOTIF#', '"k":', 'gsi1', 'pk"']) {
        expect(text).not.toContain(secret);
      }
    }
    expect(() => JSON.parse(bytes.toString('utf8'))).toThrow();
  });

  it.each([0, 5, 12, 20, 28, 40, -1])(
    'a cursor with one bit flipped in byte %i → 400 naming cursor',
    async (at) => {
      const bytes = Buffer.from(ownerCursor, 'base64url');
      const index = at < 0 ? bytes.length + at : at;
      bytes[index] = (bytes[index] ?? 0) ^ 0x01;
      expectInvalidCursor(await list(owner, { per_page: 3, page: 2, cursor: bytes.toString('base64url') }));
    },
  );

  it.each([
    ['{}', Buffer.from('{}').toString('base64url')],
    [
      'a plain JSON cursor with table keys',
      Buffer.from(JSON.stringify({ k: { gsi1pk: 'USER#1#NOTIFS', sk: 'NOTIF' }, p: 2, q: 'x' })).toString(
        'base64url',
      ),
    ],
    ['one character', 'A'],
    ['28 zero bytes (iv and tag, no body)', Buffer.alloc(28).toString('base64url')],
    [
      '200 random-looking bytes',
      Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37) % 256)).toString('base64url'),
    ],
  ])('a forged cursor (%s) → 400 naming cursor', async (_name, cursor) => {
    expectInvalidCursor(await list(owner, { per_page: 3, page: 2, cursor }));
  });

  it('a truncated cursor → 400 naming cursor', async () => {
    expectInvalidCursor(await list(owner, { per_page: 3, page: 2, cursor: ownerCursor.slice(0, -4) }));
    expectInvalidCursor(await list(owner, { per_page: 3, page: 2, cursor: ownerCursor.slice(8) }));
  });

  it.each([
    ['empty', ''],
    ['outside base64url', 'abc+/def=='],
    ['over 2048 characters', 'A'.repeat(2049)],
    ['unicode', 'ćursor✓'],
  ])('a malformed cursor (%s) → 400 naming cursor', async (_name, cursor) => {
    expectInvalidCursor(await list(owner, { per_page: 3, page: 2, cursor }));
  });

  it("another user's cursor is not honoured: the caller gets their own page, never the other user's items", async () => {
    const theirs = await list(stranger, { per_page: 3 });
    const foreign = cursorOf(theirs.body.notifications.next_page_url);
    const response = await list(owner, { per_page: 3, page: 2, cursor: foreign });
    expect(response.status, response.text).toBe(200);
    expect(response.body.notifications.data.map((item) => item.id)).toEqual(secondPageIds);
    for (const item of response.body.notifications.data) expect(item.user_id).toBe(owner.id);
  });

  it('a cursor of another filter, order or page size is not honoured: page alone applies', async () => {
    const unread = await list(owner, { per_page: 3, is_read: false });
    const unreadCursor = cursorOf(unread.body.notifications.next_page_url);
    const other = await list(owner, { per_page: 3, page: 2, cursor: unreadCursor, order: 'desc' });
    expect(other.body.notifications.data.map((item) => item.id)).toEqual(secondPageIds);

    const ascending = await list(owner, { per_page: 3, page: 2, cursor: ownerCursor, order: 'asc' });
    const ascendingByNumber = await list(owner, { per_page: 3, page: 2, order: 'asc' });
    expect(ascending.body.notifications.data).toEqual(ascendingByNumber.body.notifications.data);

    const wider = await list(owner, { per_page: 4, page: 2, cursor: ownerCursor });
    const widerByNumber = await list(owner, { per_page: 4, page: 2 });
    expect(wider.body.notifications.data).toEqual(widerByNumber.body.notifications.data);
  });

  it('a cursor sent with another page number is not honoured', async () => {
    const third = await list(owner, { per_page: 3, page: 3, cursor: ownerCursor });
    const thirdByNumber = await list(owner, { per_page: 3, page: 3 });
    expect(third.status).toBe(200);
    expect(third.body.notifications.data).toEqual(thirdByNumber.body.notifications.data);
  });
});
