import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_ROUTE,
  QUEUES,
  ROUTE_DOMAINS,
  ROUTES,
  type RouteEntry,
} from '../../shared/catalogue/index.ts';
import {
  GENERATED_ENTRIES_DIR,
  generatedEntryFile,
  routeEntryFile,
} from '../../shared/catalogue/routes/entry-file.ts';
import { CONTRACTS, isOperation } from '../../shared/contracts/index.ts';
import type { Operation } from '../../shared/contracts/operation.ts';
import { objectEntries } from '../../shared/http/openapi/schema.ts';
import {
  contractDeclaration,
  generatedEntryText,
  generatedRoutes,
  paginatorBKeyOf,
} from '../../infra/generated-entries.ts';

/**
 * The catalogue is the only wiring (docs/ARCHITECTURE.md §4): every entry file is listed exactly once, every listed
 * file exists, every route has its contract and every contract its route, and every HTTP entry file is a thin
 * call of the shared handler factory.
 */
const ROOT = resolve(import.meta.dirname, '../..');
/** Entry files that are neither routes nor queue workers. */
const NON_ROUTE_ENTRIES = ['functions/auth/authorizer.ts'];
const MAX_ENTRY_LINES = 15;

const ALL_ROUTES: readonly RouteEntry[] = [...ROUTES, FALLBACK_ROUTE];
const isGenerated = (route: RouteEntry) => route.entry.startsWith(`${GENERATED_ENTRIES_DIR}/`);
/** What an entry file says: as written by hand, or as the build writes it for a generated line. */
const GENERATED = new Map(generatedRoutes().map((entry) => [entry.route.entry, generatedEntryText(entry)]));
const entryText = (route: RouteEntry): string | undefined =>
  GENERATED.get(route.entry) ??
  (existsSync(join(ROOT, route.entry)) ? readFileSync(join(ROOT, route.entry), 'utf8') : undefined);

function filesUnder(directory: string): string[] {
  const absolute = join(ROOT, directory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

const httpEntries = filesUnder('functions/http');
const workerEntries = filesUnder('functions/workers');
const cataloguedEntries = [
  ...ALL_ROUTES.map((route) => route.entry),
  ...QUEUES.map((queue) => queue.entry as string),
  ...NON_ROUTE_ENTRIES,
];

/** Every exported operation of every module under shared/contracts, by export name. */
async function contractExports(): Promise<Map<string, Operation>> {
  const exports = new Map<string, Operation>();
  for (const file of filesUnder('shared/contracts')) {
    const module = (await import(join(ROOT, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (isOperation(value)) exports.set(`${file}#${name}`, value);
    }
  }
  return exports;
}

describe('route and queue catalogue', () => {
  it('lists every entry file under functions/http and functions/workers exactly once', () => {
    for (const file of [...httpEntries, ...workerEntries]) {
      expect(
        cataloguedEntries.filter((entry) => entry === file),
        `${file} should be catalogued once`,
      ).toHaveLength(1);
    }
  });

  it('lists no entry file twice and only files that exist, or that the build generates', () => {
    expect(new Set(cataloguedEntries).size).toBe(cataloguedEntries.length);
    for (const entry of cataloguedEntries)
      expect(GENERATED.has(entry) || existsSync(join(ROOT, entry)), `${entry} exists`).toBe(true);
  });

  it("reads a generated route's contract as its schema says: a response of one paginator B, or not", () => {
    const pageKey = (operationId: string) => {
      const fields = CONTRACTS[operationId]?.response && objectEntries(CONTRACTS[operationId].response);
      const [only, ...more] = Object.entries(fields ?? {});
      const page = only && more.length === 0 ? objectEntries(only[1]) : undefined;
      return page && 'first_page_url' in page && 'links' in page ? only?.[0] : undefined;
    };
    for (const route of [...ROUTES].filter(isGenerated))
      expect(paginatorBKeyOf(contractDeclaration(route.operationId).text), route.operationId).toBe(
        pageKey(route.operationId),
      );
    // The reader itself, on both shapes (whatever lines are generated today).
    expect(pageKey('listFeedComments')).toBe('comments');
    expect(paginatorBKeyOf(contractDeclaration('listFeedComments').text)).toBe('comments');
    expect(pageKey('getFeed')).toBeUndefined();
    expect(paginatorBKeyOf(contractDeclaration('getFeed').text)).toBeUndefined();
  });

  it('writes no entry file by hand for a generated line', () => {
    for (const route of ALL_ROUTES.filter(isGenerated)) {
      const handWritten = route.entry.slice(GENERATED_ENTRIES_DIR.length + 1);
      expect(existsSync(join(ROOT, handWritten)), `${handWritten} is generated`).toBe(false);
    }
  });

  it('finds each route entry file by one convention: functions/http/<domain>/<kebab-case operation id>.ts', () => {
    expect(routeEntryFile('feeds', 'listFeedReactions')).toBe('functions/http/feeds/list-feed-reactions.ts');
    expect(routeEntryFile('platform', 'getOpenApiDocument')).toBe(
      'functions/http/platform/get-open-api-document.ts',
    );
    for (const domain of ROUTE_DOMAINS)
      for (const route of domain.routes)
        expect(route.entry).toBe(
          (isGenerated(route) ? generatedEntryFile : routeEntryFile)(domain.name, route.operationId),
        );
    expect(FALLBACK_ROUTE.entry).toBe(routeEntryFile('platform', FALLBACK_ROUTE.operationId));
  });

  it('puts route entries under functions/http and worker entries under functions/workers', () => {
    for (const route of ALL_ROUTES)
      expect(route.entry).toMatch(/^(\.generated\/)?functions\/http\/[a-z0-9-]+\/[a-z0-9-]+\.ts$/);
    for (const queue of QUEUES) expect((queue as { entry: string }).entry).toMatch(/^functions\/workers\//);
  });

  it('has unique operation ids and unique (method, path) pairs', () => {
    const ids = ALL_ROUTES.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has unique queue names', () => {
    const names = QUEUES.map((queue) => (queue as { name: string }).name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses well-formed paths under the base', () => {
    for (const route of ROUTES) {
      expect(route.path, route.operationId).toMatch(/^\/[a-z0-9._/{}-]*$/i);
      expect(route.path, route.operationId).not.toMatch(/^\/v2\b/);
      const path: string = route.path;
      expect(path.endsWith('/') && path !== '/', route.operationId).toBe(false);
    }
  });

  it('has a contract for every catalogued route and a route for every contract', () => {
    for (const route of ALL_ROUTES) {
      expect(CONTRACTS[route.operationId]?.operationId, route.operationId).toBe(route.operationId);
    }
    const catalogued = new Set(ALL_ROUTES.map((route) => route.operationId));
    for (const operationId of Object.keys(CONTRACTS)) {
      expect(catalogued.has(operationId), `contract ${operationId} is catalogued`).toBe(true);
    }
  });

  it('registers every operation exported under shared/contracts (the registry misses no module)', async () => {
    const exported = await contractExports();
    for (const [name, operation] of exported) {
      expect(CONTRACTS[operation.operationId], name).toBe(operation);
    }
  });

  it("names exactly the contract's path parameters in each path", () => {
    for (const route of ROUTES) {
      const operation = CONTRACTS[route.operationId];
      if (!operation) continue; // reported by the test above
      const inPath = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const inContract = Object.keys((operation.params && objectEntries(operation.params)) ?? {}).sort();
      expect(inContract, route.operationId).toEqual(inPath);
    }
  });

  it('answers 201 only for POST routes', () => {
    for (const route of ROUTES) {
      if (CONTRACTS[route.operationId]?.successStatus === 201)
        expect(route.method, route.operationId).toBe('POST');
    }
  });
});

describe('HTTP entry files', () => {
  const exportNames = contractExports().then((exports) => {
    const byName = new Map<string, Operation[]>();
    for (const [key, operation] of exports) {
      const name = key.slice(key.indexOf('#') + 1);
      byName.set(name, [...(byName.get(name) ?? []), operation]);
    }
    return byName;
  });

  it.each(ALL_ROUTES.map((route) => [route.operationId, route] as const))(
    '%s is a short call of the shared handler factory with its own contract',
    async (_id, route) => {
      const text = entryText(route);
      if (text === undefined) return; // reported by the catalogue tests
      expect(text.trimEnd().split('\n').length, `${route.entry} lines`).toBeLessThanOrEqual(MAX_ENTRY_LINES);
      expect(text).toMatch(/export const handler = (httpHandler|publicHttpHandler)\(/);
      // Form-taking routes use the same factory with the multipart parser (only their bundles carry it); other
      // writes the one with `Idempotency-Key` replays, which reads never carry (issue 21, item 21).
      const factory =
        CONTRACTS[route.operationId]?.bodyKind === 'multipart'
          ? 'form-handler'
          : route.method !== 'GET' && route.access !== 'public'
            ? 'write-handler'
            : 'handler';
      expect(text).toMatch(new RegExp(`from '(\\.\\./)+shared/http/${factory}\\.ts'`));
      // Public routes must be the catalogue's public ones, and vice versa.
      expect(text.includes('publicHttpHandler('), route.entry).toBe(route.access === 'public');
      const local = /(?:httpHandler|publicHttpHandler)\(\s*(?:[\w$]+\.)?([\w$]+)\s*,/.exec(text)?.[1];
      expect(local, `${route.entry} passes a contract`).toBeDefined();
      // `import { listNotifications as contract } from '…/shared/contracts/…'` → `listNotifications`.
      const aliased = new RegExp(`([\\w$]+)\\s+as\\s+${local}\\b`).exec(text)?.[1];
      expect(text).toMatch(/from '(\.\.\/)+shared\/contracts\/[\w-]+\.ts'/);
      const candidates = (await exportNames).get(aliased ?? local ?? '') ?? [];
      expect(
        candidates.map((operation) => operation.operationId),
        `${route.entry} uses the contract of ${route.operationId}`,
      ).toContain(route.operationId);
      // Entry files never build keys or talk to DynamoDB themselves (docs/ARCHITECTURE.md §5).
      expect(text).not.toMatch(/@aws-sdk|shared\/db\//);
    },
  );

  it('every entry file under functions/http is such a file', () => {
    for (const file of httpEntries) {
      expect(
        ALL_ROUTES.some((route) => route.entry === file),
        file,
      ).toBe(true);
    }
  });

  /** The code of an entry file without comments and string literals (so a `!` in a message is not code). */
  const codeOf = (file: string) =>
    readFileSync(join(ROOT, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
      .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");

  it.each(httpEntries)(
    '%s: one handler export, no non-null assertion, no default restated (the contract applies them)',
    (file) => {
      const code = codeOf(file);
      expect(code.match(/\bexport\b/g), 'exactly one export').toHaveLength(1);
      expect(code).toMatch(/^export const handler = (httpHandler|publicHttpHandler)\(/m);
      expect(code.match(/\b(httpHandler|publicHttpHandler)\(/g), 'one factory call').toHaveLength(1);
      // `x!` / `x!.y` / `x![0]` (but not `!==` or a leading `!x`).
      expect(code, 'non-null assertion').not.toMatch(/[\w)\]]!(?!=)/);
      expect(code, 'a fallback value').not.toMatch(/\?\?|\|\|/);
      // The only `=` is `handler =`: no destructuring default (`{ page = 1 }`), no assignment.
      const assignments = code.replace(/=>|[=!<>]==?|==/g, '').match(/=/g) ?? [];
      expect(assignments, 'a default or an assignment').toHaveLength(1);
    },
  );
});
