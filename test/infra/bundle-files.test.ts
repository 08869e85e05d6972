import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_SCRIPT_FILE, ROUTES } from '#shared/catalogue/index.ts';
import { ApiFunction, PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { routeSpec } from '#infra/function-specs.ts';

/**
 * A route's `bundleFiles` ship beside its bundled code: the API reference script function reads Redoc's bundle
 * there in the cloud. This bundles that one function for real (esbuild, no Docker) and looks in its asset.
 */
const outdir = mkdtempSync(join(tmpdir(), 'bundle-files-'));
let bundledHandler: string | undefined;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('files shipped beside a bundle', () => {
  const route = ROUTES.find((entry) => entry.bundleFiles?.includes(REFERENCE_SCRIPT_FILE));

  it('the reference script route names the Redoc bundle', () => {
    expect(route?.operationId).toBe('getApiReferenceScript');
  });

  it('copies them into the function asset, byte for byte, next to the bundled handler', () => {
    if (!route) throw new Error('no route ships the reference script');
    const spec = routeSpec(route);
    const app = new App({ outdir });
    const stack = new Stack(app, 'BundleFiles');
    new ApiFunction(stack, spec.id, {
      entry: spec.entry,
      functionName: 'bundle-files-test',
      bundleFiles: spec.bundleFiles,
      environment: {
        STAGE: 'dev',
        TABLE_NAME: 'table',
        MAIL_FROM: 'community@example.com',
        CORS_ORIGINS: '*',
        LOG_LEVEL: 'warn',
        PUBLIC_BASE_URL: '',
      },
    });
    app.synth();
    const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
    const withHandler = assets.filter((name) => existsSync(join(outdir, name, 'index.mjs')));
    expect(withHandler).toHaveLength(1);
    const copied = join(outdir, withHandler[0] as string, basename(REFERENCE_SCRIPT_FILE));
    expect(existsSync(copied), copied).toBe(true);
    expect(readFileSync(copied).equals(readFileSync(join(PROJECT_ROOT, REFERENCE_SCRIPT_FILE)))).toBe(true);
    bundledHandler = join(outdir, withHandler[0] as string, 'index.mjs');
  });

  it('the bundled handler serves the copy (outside the repository, where no node_modules could answer)', async () => {
    if (!bundledHandler) throw new Error('not bundled');
    process.env.TABLE_NAME ??= 'table';
    const { handler } = (await import(bundledHandler)) as {
      handler: (
        event: unknown,
        context: unknown,
      ) => Promise<{ statusCode: number; body: string; headers: object }>;
    };
    const result = await handler(
      {
        routeKey: 'GET /v2/docs/redoc.standalone.js',
        rawPath: '/v2/docs/redoc.standalone.js',
        headers: {},
        requestContext: { requestId: 'r', http: { method: 'GET' } },
      },
      { functionName: 'bundle-files-test', awsRequestId: 'r', getRemainingTimeInMillis: () => 10_000 },
    );
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8' });
    expect(result.body.length).toBeGreaterThan(100_000);
    expect(result.body).not.toContain('https://cdn.redoc.ly/');
  });
});
