import WebSocket from 'ws';
import { apiUrl } from './api.ts';

/** The local live URL: the gateway's own port, `/live` (as `npm start` prints it). */
export const liveUrl = (): string =>
  apiUrl()
    .replace(/^http:/, 'ws:')
    .replace(/\/v2$/, '/live');

export type LiveMessage = Record<string, unknown> & { type: string };

/** An open live connection that records every message, and when (for latency figures). */
export interface LiveClient {
  readonly socket: WebSocket;
  readonly messages: Array<{ readonly at: number; readonly message: LiveMessage }>;
  /** Resolves with the first recorded message (from `from` on) matching, or rejects after `timeoutMs`. */
  next(match: (message: LiveMessage) => boolean, timeoutMs?: number, from?: number): Promise<LiveMessage>;
  /** Resolves with the close code and reason once the server closed the connection. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** Connects; resolves once open, or rejects with the handshake's HTTP status (`refused 403`). */
export function connectLive(
  options: { authorization?: string; ticket?: string; url?: string } = {},
): Promise<LiveClient> {
  const url = new URL(options.url ?? liveUrl());
  if (options.ticket !== undefined) url.searchParams.set('ticket', options.ticket);
  const socket = new WebSocket(url, {
    ...(options.authorization ? { headers: { authorization: options.authorization } } : {}),
  });
  const messages: LiveClient['messages'] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push({ at: performance.now(), message: JSON.parse(String(data)) as LiveMessage });
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    socket.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  const client: LiveClient = {
    socket,
    messages,
    closed,
    next(match, timeoutMs = 5_000, from = 0) {
      return new Promise((resolvePromise, reject) => {
        const check = () => {
          const found = messages.slice(from).find((entry) => match(entry.message));
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolvePromise(found.message);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching live message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      if (socket.readyState === socket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
  return new Promise((resolvePromise, reject) => {
    socket.once('open', () => resolvePromise(client));
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`refused ${response.statusCode}`));
      socket.terminate();
    });
    socket.once('error', reject);
  });
}
