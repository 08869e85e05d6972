import { afterEach, describe, expect, it } from 'vitest';
import { passwordPepper } from '../../shared/config/pepper.ts';
import { generateToken, hashSecret } from '../../shared/domain/users/secret-hash.ts';
import { putLiveConnection } from '../../shared/domain/live/live-connection-repository.ts';
import { insertToken } from '../../shared/domain/users/user-repository.ts';
import { memberLiveConnections } from '../../shared/db/keys/live.ts';
import { queryItems } from '../../shared/db/reads.ts';
import * as v from 'valibot';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { postComment, postFeed } from '../support/feeds.ts';
import { connectLive, type LiveClient } from '../support/live.ts';

/** The live channel (README, Live updates) through the local gateway's WebSocket API. */

const open: LiveClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
const track = (client: LiveClient) => {
  open.push(client);
  return client;
};
const connectAs = async (user: TestUser) => track(await connectLive({ authorization: user.authorization }));

async function ticketFor(user: TestUser): Promise<string> {
  const response = await api<{ ticket: string; expires_at: string }>('POST', '/live/tickets', { as: user });
  expect(response.status, response.text).toBe(201);
  const expiresIn = Date.parse(`${response.body.expires_at}Z`) - Date.now();
  expect(expiresIn).toBeGreaterThan(50_000);
  expect(expiresIn).toBeLessThanOrEqual(60_000);
  expect(response.body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return response.body.ticket;
}

const ping = async (client: LiveClient) => {
  const from = client.messages.length;
  client.socket.send(JSON.stringify({ type: 'ping' }));
  return client.next((message) => message.type === 'pong', 5_000, from);
};

const connectionsOf = (userId: number) =>
  queryItems(memberLiveConnections(userId), v.looseObject({ connection_id: v.string() }), {
    consistent: true,
  });

describe('connecting', () => {
  it('connects with an application password, a bearer token or a ticket, and answers a ping', async () => {
    const user = await createTestUser();
    const { id, secret, token } = generateToken();
    await insertToken(user.id, id, hashSecret(secret, await passwordPepper()));

    const byPassword = await connectAs(user);
    const byBearer = track(await connectLive({ authorization: `Bearer ${token}` }));
    const byTicket = track(await connectLive({ ticket: await ticketFor(user) }));
    for (const client of [byPassword, byBearer, byTicket])
      expect(await ping(client)).toEqual({ type: 'pong' });
    expect(await connectionsOf(user.id)).toHaveLength(3);
  });

  it('refuses no credentials, wrong ones, an unknown ticket and an inactive member', async () => {
    const [user, suspended] = await Promise.all([createTestUser(), createTestUser({ status: 'suspended' })]);
    const wrong = `Basic ${Buffer.from(`${user.username}:${suspended.password}`).toString('base64')}`;
    await expect(connectLive()).rejects.toThrow('refused 403');
    await expect(connectLive({ authorization: wrong })).rejects.toThrow('refused 403');
    await expect(connectLive({ authorization: 'Bearer not-a-token' })).rejects.toThrow('refused 403');
    await expect(connectLive({ ticket: 'x'.repeat(43) })).rejects.toThrow('refused 403');
    await expect(connectLive({ authorization: suspended.authorization })).rejects.toThrow('refused 403');
    expect(await connectionsOf(user.id)).toHaveLength(0);
  });

  it('a ticket opens one connection only', async () => {
    const user = await createTestUser();
    const ticket = await ticketFor(user);
    track(await connectLive({ ticket }));
    await expect(connectLive({ ticket })).rejects.toThrow('refused 403');
  });

  it('POST /live/tickets needs a caller', async () => {
    const response = await api('POST', '/live/tickets');
    expect(response.status).toBe(401);
  });

  it('a sixth connection closes the oldest, which is told 4008 first', async () => {
    const user = await createTestUser();
    const clients: LiveClient[] = [];
    for (let index = 0; index < 5; index++) clients.push(await connectAs(user));
    const sixth = await connectAs(user);
    const [oldest] = clients as [LiveClient];
    expect(await oldest.next((message) => message.type === 'closing')).toMatchObject({ code: 4008 });
    await oldest.closed;
    const remaining = (await connectionsOf(user.id)).map((item) => item.connection_id);
    expect(remaining).toHaveLength(5);
    expect(await ping(sixth)).toEqual({ type: 'pong' });
    for (const client of clients.slice(1)) expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('refuses an oversized or unknown message with an error, keeping the connection', async () => {
    const client = await connectAs(await createTestUser());
    client.socket.send('x'.repeat(20_000));
    expect(await client.next((message) => message.type === 'error')).toMatchObject({
      code: 'message_too_large',
    });
    client.socket.send('hello');
    expect(await client.next((message) => message.code === 'unknown_message')).toMatchObject({
      type: 'error',
    });
    expect(await ping(client)).toEqual({ type: 'pong' });
  });
});

describe('events', () => {
  it("a member on two sockets gets another member's comment on both within 1 s, and counts after mark-all-read", async () => {
    const [author, commenter] = await Promise.all([createTestUser(), createTestUser()]);
    const feed = await postFeed(author, {});
    const [first, second] = [await connectAs(author), await connectAs(author)];
    const commenterSocket = await connectAs(commenter);

    await postComment(commenter, feed.id, 'Nice post');
    const answered = performance.now();
    for (const socket of [first, second]) {
      const event = await socket.next((message) => message.type === 'notification', 1_000);
      expect(event).toMatchObject({
        type: 'notification',
        unread_count: 1,
        notification: { type: 'new_comment', user_id: author.id, actor_id: commenter.id, is_read: false },
      });
      expect(Object.keys(event.notification as object)).not.toContain('pk');
    }
    const arrivals = [first, second].map((socket) => socket.messages[0]?.at ?? Number.POSITIVE_INFINITY);
    expect(Math.max(...arrivals) - answered).toBeLessThan(1_000);

    // Marked read over HTTP: every open connection of the member hears the new count.
    const from = second.messages.length;
    const marked = await api('POST', '/notifications/mark-all-read', { as: author });
    expect(marked.status, marked.text).toBe(200);
    expect(await second.next((message) => message.type === 'unread_count', 1_000, from)).toEqual({
      type: 'unread_count',
      unread_count: 0,
    });
    expect(commenterSocket.messages.filter((entry) => entry.message.type !== 'pong')).toEqual([]);
  });

  it('deleting one notification tells the member the new count', async () => {
    const [author, commenter] = await Promise.all([createTestUser(), createTestUser()]);
    const feed = await postFeed(author, {});
    await postComment(commenter, feed.id, 'One');
    await postComment(commenter, feed.id, 'Two');
    const socket = await connectAs(author);
    // The notify worker stores them shortly after the comments are answered.
    const deadline = Date.now() + 5_000;
    const unreadNow = () =>
      api<{ notifications: Array<{ id: number }> }>('GET', '/notifications/unread', { as: author });
    let unread = await unreadNow();
    while (unread.body.notifications.length < 2 && Date.now() < deadline) unread = await unreadNow();
    expect(unread.body.notifications).toHaveLength(2);
    const deleted = await api('DELETE', `/notifications/${unread.body.notifications[0]?.id}`, { as: author });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await socket.next((message) => message.type === 'unread_count')).toEqual({
      type: 'unread_count',
      unread_count: 1,
    });
  });

  it('no event reaches another member, with many members connected at once', async () => {
    const members = await Promise.all(Array.from({ length: 12 }, () => createTestUser()));
    const commenter = await createTestUser();
    const feeds = await Promise.all(members.map((member) => postFeed(member, {})));
    const sockets = await Promise.all(members.map((member) => connectAs(member)));
    await Promise.all(feeds.map((feed, index) => postComment(commenter, feed.id, `For member ${index}`)));
    // Each member's own event arrives (the notify worker announces after storing); any stray one would have been
    // sent by then, and a ping answered afterwards flushes the socket.
    for (const socket of sockets) await socket.next((message) => message.type === 'notification', 5_000);
    for (const socket of sockets) await ping(socket);
    // Everything a socket got is its own member's: one notification each, addressed to that member.
    for (const [index, socket] of sockets.entries()) {
      const notifications = socket.messages.filter((entry) => entry.message.type === 'notification');
      expect(notifications).toHaveLength(1);
      expect(notifications[0]?.message.notification).toMatchObject({ user_id: members[index]?.id });
    }
  });

  it('a stale connection (Gone on send) is removed', async () => {
    const [author, commenter] = await Promise.all([createTestUser(), createTestUser()]);
    const feed = await postFeed(author, {});
    const live = await connectAs(author);
    // A connection the gateway no longer knows, as when $disconnect never ran.
    await putLiveConnection({
      userId: author.id,
      connectionId: 'stale-connection',
      connectedAt: Date.now() - 1_000,
    });
    expect(await connectionsOf(author.id)).toHaveLength(2);
    await postComment(commenter, feed.id, 'Hello');
    await live.next((message) => message.type === 'notification');
    const deadline = Date.now() + 5_000;
    let left = await connectionsOf(author.id);
    while (left.length > 1 && Date.now() < deadline) left = await connectionsOf(author.id);
    expect(left.map((item) => item.connection_id)).not.toContain('stale-connection');
    expect(left).toHaveLength(1);
  });
});
