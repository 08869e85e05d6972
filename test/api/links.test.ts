import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitNotification } from '../../shared/domain/notifications/index.ts';
import { apiUrl, createTestUser, type TestUser } from '../support/api.ts';

/**
 * Links use the configured origin (issue 7, item 6): absolute page URLs start with the stage's PUBLIC_BASE_URL
 * (locally the gateway's own URL), never with a Host or X-Forwarded-* header the client chose, and carry only the
 * query parameters the contract declares.
 */
type Paginator = {
  first_page_url: string;
  last_page_url: string;
  next_page_url: string | null;
  prev_page_url: string | null;
  path: string;
  links: Array<{ url: string | null }>;
};

/** A GET with headers `fetch` would not let a test set (Host). */
function rawGet(path: string, user: TestUser, headers: Record<string, string>) {
  const url = new URL(`${apiUrl()}${path}`);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'GET' },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.setHeader('authorization', user.authorization);
    for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const linksOf = (page: Paginator): string[] =>
  [
    page.first_page_url,
    page.last_page_url,
    page.next_page_url,
    page.prev_page_url,
    page.path,
    ...page.links.map((link) => link.url),
  ].filter((url): url is string => url !== null);

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser();
  for (let index = 0; index < 5; index += 1) {
    await emitNotification({
      recipientId: user.id,
      type: 'space_join',
      actorId: null,
      title: `Link ${index}`,
      message: 'For the link tests',
      actionUrl: '/spaces/1',
      objectId: 1,
      objectType: 'space',
    });
  }
});

describe('page links', () => {
  it.each([
    [{ 'x-forwarded-host': 'evil.example' }],
    [{ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'gopher', 'x-forwarded-port': '666' }],
    [{ host: 'evil.example' }],
    [{ host: 'evil.example:8443', forwarded: 'host=evil.example;proto=https' }],
  ])('start with the configured base URL whatever the request says (%o)', async (headers) => {
    const response = await rawGet('/notifications?per_page=2&page=2', user, headers);
    expect(response.status, response.body).toBe(200);
    expect(response.body).not.toContain('evil');
    expect(response.body).not.toContain('gopher');
    const page = (JSON.parse(response.body) as { notifications: Paginator }).notifications;
    const links = linksOf(page);
    expect(links.length).toBeGreaterThanOrEqual(6);
    for (const link of links) expect(link.startsWith(`${apiUrl()}/notifications`), link).toBe(true);
    expect(page.path).toBe(`${apiUrl()}/notifications`);
  });

  it('carry the declared query parameters and drop unknown ones', async () => {
    const response = await rawGet('/notifications?per_page=2&type=space_join&evil=1&callback=x', user, {});
    const page = (JSON.parse(response.body) as { notifications: Paginator }).notifications;
    const next = new URL(page.next_page_url ?? '');
    expect([...next.searchParams.keys()].sort()).toEqual(['cursor', 'page', 'per_page', 'type']);
    for (const link of linksOf(page)) expect(link).not.toMatch(/evil|callback/);
  });
});
