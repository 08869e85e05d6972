import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/emulators.ts';
import { type NpmStart, npmStart } from '../support/npm-start.ts';
import { processTree, waitUntilGone } from '../support/processes.ts';

/**
 * GET /feeds/oembed against `npm start` with the two local-only variables: `OEMBED_PROVIDERS_EXTRA` adds providers
 * served by local fakes, `OEMBED_ALLOW_HOSTS` exempts the one fake provider from the address check. A separate
 * listener stands for every address that must never be reached (loopback, IPv6 loopback, a name resolving to
 * loopback); it counts its hits, which must stay zero.
 */

const RECORD = {
  type: 'video',
  version: '1.0',
  provider_name: 'Fake Video',
  provider_url: 'https://video.fake.test/',
  title: 'A fake video',
  author_name: 'Someone',
  thumbnail_url: 'https://video.fake.test/thumb.jpg',
  html: '<iframe src="https://video.fake.test/embed/1"></iframe>',
  width: 640,
  height: '360',
};

/** A record as a hostile provider could send it (issue 21, item 9). */
const UNSAFE_RECORD = {
  ...RECORD,
  provider_url: 'javascript:alert(document.cookie)',
  thumbnail_url: 'data:image/svg+xml,<svg onload=alert(1)>',
  html:
    '<script>alert(1)</script><iframe src="https://video.fake.test/embed/2" onload="alert(2)" width="640"></iframe>' +
    '<iframe src="http://video.fake.test/plain"></iframe><iframe src="javascript:alert(3)"></iframe>' +
    '<a href="javascript:alert(4)">x</a><img src="x" onerror="alert(5)"><style>*{}</style>',
};

let forbiddenHits = 0;
const providerHits = new Map<string, number>();
const servers: Server[] = [];
let stack: NpmStart | undefined;
let apiUrl = '';
let authorization = '';
const dataDir = mkdtempSync(join(tmpdir(), 'media-oembed-'));

function listen(server: Server, port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => {
      servers.push(server);
      resolve(true);
    });
  });
}

function fakeProvider(request: IncomingMessage, response: ServerResponse, forbiddenPort: number) {
  const url = new URL(request.url ?? '/', 'http://fake');
  providerHits.set(url.pathname, (providerHits.get(url.pathname) ?? 0) + 1);
  const embedded = new URL(url.searchParams.get('url') ?? 'https://none/');
  if (url.pathname === '/oembed') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(RECORD));
  } else if (url.pathname === '/redirect') {
    // https://redirect.fake.test/<target name> → a redirect to a refused address.
    const targets: Record<string, string> = {
      '/loopback': `http://127.0.0.1:${forbiddenPort}/oembed`,
      '/loopback6': `http://[::1]:${forbiddenPort}/oembed`,
      '/metadata': 'http://169.254.169.254/latest/meta-data/',
      '/named': `http://localhost:${forbiddenPort}/oembed`,
    };
    response.writeHead(302, { location: targets[embedded.pathname] ?? '/' }).end();
  } else if (url.pathname === '/big') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ...RECORD, html: 'x'.repeat(400 * 1024) }));
  } else if (url.pathname === '/reset' || url.pathname === '/cut') {
    // Part of a JSON body, then the connection breaks off: reset (RST) or closed (FIN) before the rest.
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    response.write(JSON.stringify(RECORD).slice(0, 40), () =>
      url.pathname === '/reset' ? response.socket?.resetAndDestroy() : response.socket?.destroy(),
    );
  } else if (url.pathname === '/unsafe') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(UNSAFE_RECORD));
  } else if (url.pathname === '/slow') {
    setTimeout(() => response.writeHead(200).end(JSON.stringify(RECORD)), 7_000).unref();
  } else {
    response.writeHead(404).end();
  }
}

beforeAll(async () => {
  const [providerPort, forbiddenPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const forbidden = () =>
    createServer((_request, response) => {
      forbiddenHits++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(RECORD));
    });
  expect(await listen(forbidden(), forbiddenPort, '127.0.0.1')).toBe(true);
  // IPv6 loopback too, when the machine has it: a request there would be counted as well.
  await listen(forbidden(), forbiddenPort, '::1');
  const provider = createServer((request, response) => fakeProvider(request, response, forbiddenPort));
  expect(await listen(provider, providerPort, '127.0.0.1')).toBe(true);

  const endpoint = (name: string, schemes: string, url: string) => ({
    provider_name: name,
    provider_url: `https://${schemes}/`,
    endpoints: [{ schemes: [`https://${schemes}/*`], url }],
  });
  const providersFile = join(dataDir, 'providers.json');
  writeFileSync(
    providersFile,
    JSON.stringify([
      endpoint('Fake Video', 'video.fake.test', `http://127.0.0.1:${providerPort}/oembed`),
      endpoint('Redirector', 'redirect.fake.test', `http://127.0.0.1:${providerPort}/redirect`),
      endpoint('Big', 'big.fake.test', `http://127.0.0.1:${providerPort}/big`),
      endpoint('Reset', 'reset.fake.test', `http://127.0.0.1:${providerPort}/reset`),
      endpoint('Cut', 'cut.fake.test', `http://127.0.0.1:${providerPort}/cut`),
      endpoint('Unsafe', 'unsafe.fake.test', `http://127.0.0.1:${providerPort}/unsafe`),
      endpoint('Slow', 'slow.fake.test', `http://127.0.0.1:${providerPort}/slow`),
      endpoint('Loopback', 'loop.fake.test', `http://127.0.0.1:${forbiddenPort}/oembed`),
      endpoint('Loopback6', 'loop6.fake.test', `http://[::1]:${forbiddenPort}/oembed`),
      endpoint('Metadata', 'meta.fake.test', 'http://169.254.169.254/latest/meta-data/'),
      endpoint('Named', 'named.fake.test', `http://localhost:${forbiddenPort}/oembed`),
    ]),
  );
  stack = npmStart(join(dataDir, 'stack'), apiPort, {
    OEMBED_PROVIDERS_EXTRA: providersFile,
    OEMBED_ALLOW_HOSTS: `127.0.0.1:${providerPort}`,
  });
  apiUrl = await stack.ready;
  const admin = /user (\S+) {2}application password (.+)$/m.exec(stack.output());
  if (!admin) throw new Error(`no administrator line in:\n${stack.output()}`);
  authorization = `Basic ${Buffer.from(`${admin[1]}:${admin[2]?.replace(/ /g, '')}`).toString('base64')}`;
}, 120_000);

afterAll(async () => {
  if (stack) {
    const tree = processTree(stack.pid);
    process.kill(stack.pid, 'SIGTERM');
    await stack.exited;
    await waitUntilGone(tree);
  }
  for (const server of servers) server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function oembed(url: string) {
  const response = await fetch(`${apiUrl}/feeds/oembed?url=${encodeURIComponent(url)}`, {
    headers: { authorization },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const NOT_FOUND = { code: 'oembed_not_found', message: expect.any(String), data: { status: 404 } };

describe('GET /feeds/oembed', () => {
  it('answers the record of a known provider served by a local fake, and fetches a URL once', async () => {
    const first = await oembed('https://video.fake.test/watch/1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      data: {
        type: 'video',
        provider_name: 'Fake Video',
        provider_url: 'https://video.fake.test/',
        title: 'A fake video',
        author_name: 'Someone',
        thumbnail_url: 'https://video.fake.test/thumb.jpg',
        html: RECORD.html,
        width: 640,
        height: 360,
      },
    });
    const second = await oembed('https://video.fake.test/watch/1');
    expect(second).toEqual(first);
    expect(providerHits.get('/oembed')).toBe(1);
  });

  it.each([
    'http://127.0.0.1/',
    'http://169.254.169.254/',
    'http://[::1]/',
    'ftp://video.fake.test/watch/1',
    'javascript:alert(1)',
    'https://unknown.example/watch',
  ])('refuses %s with 404 oembed_not_found', async (url) => {
    const response = await oembed(url);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it.each([
    ['an endpoint on 127.0.0.1', 'https://loop.fake.test/a'],
    ['an endpoint on [::1]', 'https://loop6.fake.test/a'],
    ['an endpoint on the metadata address', 'https://meta.fake.test/a'],
    ['an endpoint whose name resolves to loopback', 'https://named.fake.test/a'],
    ['a redirect to 127.0.0.1', 'https://redirect.fake.test/loopback'],
    ['a redirect to [::1]', 'https://redirect.fake.test/loopback6'],
    ['a redirect to the metadata address', 'https://redirect.fake.test/metadata'],
    ['a redirect to a name resolving to loopback', 'https://redirect.fake.test/named'],
  ])('refuses %s without a request reaching it', async (_name, url) => {
    const response = await oembed(url);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
    expect(forbiddenHits).toBe(0);
  });

  it('gives up on an answer over 300 KB and on a provider slower than 5 s', async () => {
    const big = await oembed('https://big.fake.test/a');
    expect(big.status).toBe(404);
    const started = Date.now();
    const slow = await oembed('https://slow.fake.test/a');
    expect(slow.status).toBe(404);
    expect(Date.now() - started).toBeLessThan(6_500);
  }, 15_000);

  it.each([
    ['resets', 'reset'],
    ['closes', 'cut'],
  ])(
    'item 3: answers 404 oembed_not_found, not 500, when the provider %s the connection mid-body',
    async (_how, name) => {
      const response = await oembed(`https://${name}.fake.test/a`);
      expect(providerHits.get(`/${name}`)).toBe(1);
      expect(response.status, JSON.stringify(response.body)).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    },
  );

  it('item 9: keeps only http(s) URL fields and sanitizes html (https iframes only), answered and cached', async () => {
    const first = await oembed('https://unsafe.fake.test/a');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const data = first.body.data as Record<string, unknown>;
    expect(data.provider_url).toBeNull();
    expect(data.thumbnail_url).toBeNull();
    expect(data.html).toBe(
      '<iframe src="https://video.fake.test/embed/2" width="640"></iframe><a rel="nofollow ugc noopener" target="_blank">x</a>',
    );
    expect(data.title).toBe(RECORD.title);
    // The second answer comes from the cache: the same clean record, no new fetch.
    const second = await oembed('https://unsafe.fake.test/a');
    expect(second).toEqual(first);
    expect(providerHits.get('/unsafe')).toBe(1);
  });
});
