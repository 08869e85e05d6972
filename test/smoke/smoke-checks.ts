/**
 * The smoke suite: a few read-only requests that prove a deployed stage answers as the contract says, run by the
 * workflow against the dev stage's URL before prod may be approved (`npm run smoke -- <base URL>`), and by
 * test/api/smoke.test.ts against the local stack. It needs no credentials and writes nothing: the public documents,
 * the catch-all, and the authorizer's two refusals (which read the table and the pepper secret, so IAM, the
 * environment and the bundle all have to be right).
 */
export interface SmokeCheck {
  readonly name: string;
  run(baseUrl: string): Promise<void>;
}

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

export const SMOKE_CHECKS: readonly SmokeCheck[] = [
  {
    name: 'GET /openapi.json is the OpenAPI 3.1 document',
    async run(base) {
      const answer = await call(`${base}/openapi.json`);
      expectThat(answer.status === 200, `status ${answer.status}`);
      expectThat(answer.json?.openapi === '3.1.0', 'not an OpenAPI 3.1 document');
      expectThat(Boolean(answer.headers.get('x-request-id')), 'no x-request-id');
    },
  },
  {
    name: 'GET /docs is the API reference page',
    async run(base) {
      const answer = await call(`${base}/docs`);
      expectThat(answer.status === 200, `status ${answer.status}`);
      expectThat(/text\/html/.test(answer.headers.get('content-type') ?? ''), 'not HTML');
    },
  },
  {
    name: 'an unknown route is 404 rest_no_route',
    async run(base) {
      const answer = await call(`${base}/smoke/no-such-route`);
      expectThat(
        answer.status === 404 && answer.json?.code === 'rest_no_route',
        `${answer.status} ${answer.text}`,
      );
    },
  },
  {
    name: 'a protected route without credentials is 401 rest_not_logged_in',
    async run(base) {
      const answer = await call(`${base}/notifications`);
      expectThat(
        answer.status === 401 && answer.json?.code === 'rest_not_logged_in',
        `${answer.status} ${answer.text}`,
      );
    },
  },
  {
    name: 'unknown credentials are 401 invalid_credentials (the authorizer reads its stores)',
    async run(base) {
      const basic = Buffer.from('smoke-no-such-user:abcdEFGHijklMNOPqrstUVWX').toString('base64');
      const answer = await call(`${base}/notifications`, { headers: { authorization: `Basic ${basic}` } });
      expectThat(
        answer.status === 401 && answer.json?.code === 'invalid_credentials',
        `${answer.status} ${answer.text}`,
      );
    },
  },
];

/** Runs every check; answers the failures (empty = healthy). */
export async function runSmoke(baseUrl: string): Promise<{ name: string; error?: string }[]> {
  const base = baseUrl.replace(/\/+$/, '');
  const results: { name: string; error?: string }[] = [];
  for (const check of SMOKE_CHECKS) {
    try {
      await check.run(base);
      results.push({ name: check.name });
    } catch (error) {
      results.push({ name: check.name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}
