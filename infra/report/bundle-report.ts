/**
 * `npm run report:bundles`: bundles every catalogued function (routes, catch-all, workers, authorizer) with the
 * SAME esbuild options as the CDK construct (infra/bundle-options.ts), plus two references built the same way —
 * a hello-world handler and the "floor" (one DynamoDB client, one GetItem) — and prints, per bundle, its size,
 * gzipped size and cold-process time: the median wall time of N fresh `node` processes that only `import()` it.
 * Target: the median function within 1.15 x the floor. A bundle more than 100 KB over the floor gets its
 * heaviest modules listed, so a heavy library reaching a function that does not use it shows up here.
 *
 * Options: REPORT_RUNS (default 5).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions } from '../bundle-options.ts';
import { PROJECT_ROOT } from '../constructs/api-function.ts';
import { allFunctionSpecs } from '../function-specs.ts';

const RUNS = Number(process.env.REPORT_RUNS ?? 5);
const HEAVY_MARGIN_BYTES = 100 * 1024;
const TARGET_RATIO = 1.15;

const REFERENCES = {
  'ref: hello-world': "export const handler = async () => ({ statusCode: 200, body: 'ok' });\n",
  'ref: floor (DynamoDB GetItem)': [
    "import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';",
    'const client = new DynamoDBClient({});',
    'export const handler = async () =>',
    "  client.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: 'a' }, sk: { S: 'b' } } }));",
    '',
  ].join('\n'),
} as const;

interface Measured {
  readonly name: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly coldMs: number;
  readonly metafile: Metafile;
  readonly outfile: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Environment a function needs to get through its imports (the env schema is parsed lazily, but be safe). */
const CHILD_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'report',
  STAGE: 'report',
  LOG_LEVEL: 'silent',
};

function coldProcessMs(file: string): number {
  const script = `await import(${JSON.stringify(pathToFileURL(file).href)});`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: CHILD_ENV,
      stdio: 'pipe',
    });
    times.push(performance.now() - start);
    if (result.status !== 0)
      throw new Error(`import of ${file} failed: ${result.stderr.toString().slice(0, 500)}`);
  }
  return median(times);
}

/** `source`: an entry file, or inline code resolved from the project root (the references). */
async function bundle(
  name: string,
  source: { file: string } | { code: string },
  outDir: string,
  nativeModules: readonly string[] = [],
): Promise<Measured> {
  const outfile = path.join(outDir, 'index.mjs');
  const options = esbuildOptions();
  const result = await build({
    ...options,
    // Native packages ship beside the bundle (infra/constructs/native-modules.ts), not in it.
    external: [...(options.external ?? []), ...nativeModules],
    ...('file' in source
      ? { entryPoints: [source.file] }
      : {
          stdin: {
            contents: source.code,
            resolveDir: PROJECT_ROOT,
            loader: 'ts' as const,
            sourcefile: `${name}.ts`,
          },
        }),
    outfile,
    absWorkingDir: PROJECT_ROOT,
    metafile: true,
    logLevel: 'error',
  });
  const code = readFileSync(outfile);
  return {
    name,
    bytes: statSync(outfile).size,
    gzipBytes: gzipSync(code).length,
    coldMs: coldProcessMs(outfile),
    metafile: result.metafile,
    outfile,
  };
}

/** Bytes in the output per package (or per project folder), largest first. */
function topModules(measured: Measured, count = 8): [string, number][] {
  const output = Object.entries(measured.metafile.outputs).find(([file]) => file.endsWith('.mjs'))?.[1];
  const perModule = new Map<string, number>();
  for (const [input, info] of Object.entries(output?.inputs ?? {})) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const key = match?.[1] ?? input.split('/').slice(0, 2).join('/');
    perModule.set(key, (perModule.get(key) ?? 0) + info.bytesInOutput);
  }
  return [...perModule.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'bundle-report-'));
  try {
    const references: Measured[] = [];
    for (const [name, source] of Object.entries(REFERENCES)) {
      references.push(await bundle(name, { code: source }, path.join(workDir, name.replace(/\W+/g, '-'))));
    }
    const [hello, floor] = references as [Measured, Measured];

    const functions: Measured[] = [];
    const missing: string[] = [];
    for (const spec of allFunctionSpecs()) {
      const entry = path.join(PROJECT_ROOT, spec.entry);
      if (!existsSync(entry)) {
        missing.push(`${spec.id} (${spec.entry})`);
        continue;
      }
      // A function with native packages is measured where `node_modules` resolves them, so its cold time includes
      // loading them (bytes count only the bundle: the packages are the same for every function that has them).
      const outDir = spec.nativeModules?.length
        ? path.join(PROJECT_ROOT, 'node_modules', '.cache', 'bundle-report', spec.id)
        : path.join(workDir, 'functions', spec.id);
      functions.push(await bundle(spec.id, { file: entry }, outDir, spec.nativeModules));
    }

    const rows = [...functions, hello, floor].map((m) => [
      m.name,
      kb(m.bytes),
      kb(m.gzipBytes),
      m.coldMs.toFixed(1),
      (m.coldMs / floor.coldMs).toFixed(2),
    ]);
    const header = ['function', 'min KB', 'gzip KB', `cold ms (median of ${RUNS})`, 'x floor'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) console.log(line(row));

    if (functions.length > 0) {
      const medianMs = median(functions.map((m) => m.coldMs));
      const ratio = medianMs / floor.coldMs;
      const verdict = ratio <= TARGET_RATIO ? 'OK' : 'OVER TARGET';
      console.log(
        `\nmedian function cold-process ${medianMs.toFixed(1)} ms; floor ${floor.coldMs.toFixed(1)} ms; ratio ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ${verdict})`,
      );
    }
    for (const m of functions.filter((f) => f.bytes > floor.bytes + HEAVY_MARGIN_BYTES)) {
      console.log(`\n${m.name}: ${kb(m.bytes - floor.bytes)} KB over the floor; heaviest modules:`);
      for (const [module, bytes] of topModules(m)) console.log(`  ${kb(bytes).padStart(8)} KB  ${module}`);
    }
    if (missing.length) console.log(`\nnot bundled, entry file missing: ${missing.join(', ')}`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

const USAGE = `usage: npm run report:bundles
Bundles every function as the CDK does and prints each one's size, gzipped size and cold-process time beside a
hello-world and a DynamoDB-only floor. Takes no options; REPORT_RUNS=N sets the cold starts measured (default 5).
example: REPORT_RUNS=9 npm run report:bundles
`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) process.stdout.write(USAGE);
else if (args.length > 0) {
  process.stderr.write(`report:bundles takes no arguments (got ${args.join(' ')})\n${USAGE}`);
  process.exitCode = 2;
} else await main();
