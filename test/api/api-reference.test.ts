import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/catalogue/index.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import { api, apiUrl } from '../support/api.ts';

/**
 * The API reference page (`GET /v2/docs`) in a real browser: Debian's Chromium driven by playwright-core (the
 * browser is a system package, installed by `npm test` when missing; nothing is downloaded). The browser may
 * reach loopback only: every other request is refused and recorded, and DNS resolves nothing else, so the test
 * proves the page works offline. The screenshot goes to `test-output/` (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT_DIR = resolve(import.meta.dirname, '../../test-output');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const RENDER_TIMEOUT_MS = 60_000;

let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const offLoopback: string[] = [];
const failedRequests: string[] = [];

/** Loopback, or a URL that never leaves the page (`data:`, `blob:`, `about:`). */
function isLocal(url: string): boolean {
  const parsed = new URL(url);
  if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) return true;
  return LOOPBACK.has(parsed.hostname);
}

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Any name but loopback's fails to resolve: a request the route below missed could not leave either.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    offLoopback.push(url);
    return route.abort('internetdisconnected');
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on('websocket', (socket) => offLoopback.push(`websocket ${socket.url()}`));
}, RENDER_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
});

describe('GET /v2/docs', () => {
  it('answers HTML without credentials, with a policy that allows this origin only', async () => {
    const response = await api('GET', '/docs');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/\S/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Only relative URLs: the page works under any origin and base path, and names no other host.
    expect(response.text).toContain('spec-url="openapi.json"');
    expect(response.text).not.toMatch(/(?:src|href|spec-url)="(?:https?:)?\/\//);
  });

  it("serves the renderer's script from the API itself", async () => {
    const response = await api('GET', '/docs/redoc.standalone.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(response.text.length).toBeGreaterThan(100_000);
    expect(response.text).toContain('Redoc');
  });

  it(
    'renders every catalogued operation in headless Chromium, offline, with no console error',
    async () => {
      const response = await page.goto(`${apiUrl()}/docs`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      // Redoc gives each operation a section `operation/<operationId>` once the document is rendered.
      const last = ROUTES.at(-1)?.operationId;
      await page.waitForSelector(`[id$="operation/${last}"]`, { timeout: RENDER_TIMEOUT_MS });
      await page.waitForLoadState('networkidle');

      mkdirSync(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUTPUT_DIR, 'api-reference.png') });

      const sections = await page.$$eval('[id*="operation/"]', (elements) => elements.map((e) => e.id));
      for (const route of ROUTES) {
        expect(
          sections.some((id) => id.endsWith(`operation/${route.operationId}`)),
          `${route.operationId} is shown`,
        ).toBe(true);
        const summary = CONTRACTS[route.operationId]?.summary ?? route.operationId;
        const shown = await page.getByText(summary, { exact: true }).count();
        expect(shown, `summary of ${route.operationId}`).toBeGreaterThan(0);
      }
      expect(offLoopback, 'requests that would leave the machine').toEqual([]);
      expect(failedRequests, 'failed requests').toEqual([]);
      expect(consoleErrors, 'console errors').toEqual([]);
    },
    RENDER_TIMEOUT_MS * 2,
  );
});
