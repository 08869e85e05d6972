import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTE_DOMAINS, type RouteEntry } from '../shared/catalogue/index.ts';
import { GENERATED_ENTRIES_DIR, kebabCase } from '../shared/catalogue/routes/entry-file.ts';

/**
 * The entry files of catalogue lines that say `entry: 'generated'`: written at build time (CDK bundling, the
 * local gateway, the bundle report, `npm run typecheck`) under `.generated/`, never by hand. Each is the one
 * expression a hand-written entry file would be: the route's handler factory (chosen as the catalogue test holds
 * hand-written files to it) over its contract, handing the contract's input to the use case of the same name in
 * `shared/domain/<domain>/<kebab-case operation id>.ts`, called `(caller, input)`. A response that is one paginator
 * B (`{ reactions: paginatorB(…) }`) is built from the page the use case returns, with the request's links.
 *
 * The contract is read as text: the CDK app loads no runtime code beyond the catalogue (test/unit/layering.test.ts).
 * test/unit/catalogue.test.ts holds what is read here to the contract's schemas, and `tsc` checks the written file
 * against the contract and the use case.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const CONTRACTS_DIR = 'shared/contracts';

export interface GeneratedEntry {
  readonly domain: string;
  readonly route: RouteEntry;
}

/** Every catalogued route whose entry the build writes. */
export const generatedRoutes = (): GeneratedEntry[] =>
  ROUTE_DOMAINS.flatMap((domain) =>
    domain.routes
      .filter((route) => route.entry.startsWith(`${GENERATED_ENTRIES_DIR}/`))
      .map((route) => ({ domain: domain.name, route })),
  );

/** An operation's declaration in its contract module: the module, and the text up to the closing `});`. */
export function contractDeclaration(operationId: string): { module: string; text: string } {
  const start = new RegExp(`^export const ${operationId} = defineOperation\\(\\{$`, 'm');
  for (const name of readdirSync(path.join(ROOT, CONTRACTS_DIR)).filter((file) => file.endsWith('.ts'))) {
    const source = readFileSync(path.join(ROOT, CONTRACTS_DIR, name), 'utf8');
    const at = start.exec(source)?.index;
    if (at !== undefined) {
      const end = source.indexOf('\n});', at);
      return { module: `${CONTRACTS_DIR}/${name}`, text: source.slice(at, end < 0 ? undefined : end) };
    }
  }
  throw new Error(`generated entry ${operationId}: no contract module declares it`);
}

/** The key of a response declared as exactly one paginator B (`response: v.object({ key: paginatorB(…) })`). */
export const paginatorBKeyOf = (declaration: string): string | undefined =>
  /^ {2}response: v\.object\(\{ (\w+): paginatorB\([^,]*\) \}\),$/m.exec(declaration)?.[1];

/** The factory module a route's entry uses (the catalogue test's rule for hand-written entry files). */
function factoryOf(route: RouteEntry, declaration: string): string {
  if (/^ {2}bodyKind: 'multipart',$/m.test(declaration)) return 'form-handler';
  return route.method !== 'GET' && route.access !== 'public' ? 'write-handler' : 'handler';
}

/** The text of a generated entry file. */
export function generatedEntryText({ domain, route }: GeneratedEntry): string {
  const { operationId } = route;
  const useCaseModule = `shared/domain/${domain}/${kebabCase(operationId)}.ts`;
  if (!existsSync(path.join(ROOT, useCaseModule)))
    throw new Error(`generated entry ${operationId}: the use case ${useCaseModule} is missing`);
  const up = '../'.repeat(route.entry.split('/').length - 1);
  const isPublic = route.access === 'public';
  const factory = isPublic ? 'publicHttpHandler' : 'httpHandler';
  const call = isPublic ? `${operationId}(input)` : `${operationId}(ctx.caller, input)`;
  const contract = contractDeclaration(operationId);
  const pageKey = paginatorBKeyOf(contract.text);
  const body = pageKey
    ? `async (input, ctx) => ({\n  ${pageKey}: toPaginatorB(await ${call}, ctx.location),\n})`
    : `(input${isPublic ? '' : ', ctx'}) => ${call}`;
  return [
    `// Generated from the catalogue line of ${operationId} by infra/generated-entries.ts: do not edit.`,
    `import { ${operationId} as contract } from '${up}${contract.module}';`,
    `import { ${operationId} } from '${up}${useCaseModule}';`,
    `import { ${factory} } from '${up}shared/http/${factoryOf(route, contract.text)}.ts';`,
    ...(pageKey ? [`import { toPaginatorB } from '${up}shared/http/paginator.ts';`] : []),
    '',
    `export const handler = ${factory}(contract, ${body});`,
    '',
  ].join('\n');
}

/** Writes one generated entry unless it already holds this text; atomic, as several processes may build at once. */
function write(entry: GeneratedEntry): void {
  const file = path.join(ROOT, entry.route.entry);
  const text = generatedEntryText(entry);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * The absolute path of a function's entry file, written first when the catalogue generates it. Every tool that
 * loads or bundles an entry resolves it here.
 */
export function entryFilePath(entry: string): string {
  const generated = generatedRoutes().find((candidate) => candidate.route.entry === entry);
  if (generated) write(generated);
  return path.join(ROOT, entry);
}

/** Writes every generated entry (before `tsc`, so they are type-checked against their contracts and use cases). */
export function writeGeneratedEntries(): string[] {
  const entries = generatedRoutes();
  for (const entry of entries) write(entry);
  return entries.map((entry) => entry.route.entry);
}

if (process.argv[1] === import.meta.filename) {
  const written = writeGeneratedEntries();
  console.log(`generated entry files: ${written.length ? written.join(', ') : 'none'}`);
}
