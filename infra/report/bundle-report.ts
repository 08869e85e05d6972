/**
 * `npm run report:bundles`: bundles every catalogued function (routes, catch-all, workers, authorizer) with the
 * SAME esbuild options as the CDK construct (infra/bundle-options.ts), plus two references built the same way —
 * a hello-world handler and the "floor" (one DynamoDB client, one GetItem) — and prints, per bundle, its size,
 * gzipped size, the packages it imports at run time instead of carrying (its catalogue line's `nativeModules`:
 * sharp, mysql2; with their installed size) and its cold-process time: the median wall time of N fresh `node`
 * processes that `import()` the bundle AND each of those packages, as the function's first use of them would.
 *
 * The machine may be busy: each function's runs alternate with runs of the floor, and its ratio is the median of
 * its runs' ratios to the floor run just before each. Targets: the median function within 1.25 x the floor, every function within 2 x. A bundle
 * more than 100 KB over the floor gets its heaviest modules listed, so a heavy library reaching a function that
 * does not use it shows up here.
 *
 * Options: REPORT_RUNS (default 5).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions } from '../bundle-options.ts';
import { PROJECT_ROOT } from '../constructs/api-function.ts';
import { allFunctionSpecs } from '../function-specs.ts';
import { entryFilePath } from '../generated-entries.ts';
import { installedBytes, packageOf, runTimeImports } from './run-time-modules.ts';

const RUNS = Number(process.env.REPORT_RUNS ?? 5);
const HEAVY_MARGIN_BYTES = 100 * 1024;
const MEDIAN_TARGET = 1.25;
const EACH_TARGET = 2;
/** Inside node_modules, so the run-time packages resolve from the bundles as they do beside a deployed one. */
const WORK_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'bundle-report');

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

interface Built {
  readonly name: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly metafile: Metafile;
  /** The file a cold process imports: the bundle, then each run-time package. */
  readonly loader: string;
  readonly runTime: string[];
  readonly runTimeBytes: number;
}

interface Measured extends Built {
  /** Median wall time of a cold process (spawn to exit). */
  readonly coldMs: number;
  /** Median CPU time of a cold process (user + system, every thread): what loading costs, whatever the load. */
  readonly cpuMs: number;
  /**
   * Median over the runs of this run's CPU time / the floor run's just before it. CPU time, not wall time: on a
   * shared machine wall time measures the scheduler (a run waiting for a core looks slow), while CPU time is the
   * work a cold start does, which on Lambda (a fraction of a vCPU at 512 MB) is what the wait is made of.
   */
  readonly ratio: number;
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

interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** One cold process: the loader imports everything, then prints the process's own CPU usage since it started. */
function coldProcessOnce(loader: string): Run {
  const start = performance.now();
  const result = spawnSync(process.execPath, [loader], { env: CHILD_ENV, stdio: 'pipe' });
  const wallMs = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`import of ${loader} failed: ${result.stderr.toString().slice(0, 500)}`);
  const usage = /CPU_USAGE (\d+) (\d+)$/.exec(result.stdout.toString().trim());
  if (!usage) throw new Error(`${loader} printed no CPU usage`);
  return { wallMs, cpuMs: (Number(usage[1]) + Number(usage[2])) / 1000 };
}

/** RUNS cold processes of `built`, each after one of the floor (`floor` undefined: the floor itself). */
function measure(built: Built, floor: Built | undefined): Measured {
  const own: Run[] = [];
  const beside: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (floor) beside.push(coldProcessOnce(floor.loader));
    own.push(coldProcessOnce(built.loader));
  }
  return {
    ...built,
    coldMs: median(own.map((run) => run.wallMs)),
    cpuMs: median(own.map((run) => run.cpuMs)),
    ratio: floor ? median(own.map((run, i) => run.cpuMs / (beside[i]?.cpuMs ?? run.cpuMs))) : 1,
  };
}

/** `source`: an entry file, or inline code resolved from the project root (the references). */
async function bundle(
  name: string,
  source: { file: string } | { code: string },
  outDir: string,
  nativeModules: readonly string[] = [],
): Promise<Built> {
  const outfile = path.join(outDir, 'index.mjs');
  const options = esbuildOptions();
  const result = await build({
    ...options,
    // Run-time packages ship beside the bundle (infra/constructs/native-modules.ts), not in it.
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
  const runTime = runTimeImports(result.metafile);
  const loader = path.join(outDir, 'cold-start.mjs');
  writeFileSync(
    loader,
    [
      "await import('./index.mjs');",
      ...runTime.map((specifier) => `await import(${JSON.stringify(specifier)});`),
      'const { user, system } = process.cpuUsage();',
      "process.stdout.write('\\nCPU_USAGE ' + user + ' ' + system);",
    ].join('\n'),
  );
  const code = readFileSync(outfile);
  return {
    name,
    bytes: statSync(outfile).size,
    gzipBytes: gzipSync(code).length,
    metafile: result.metafile,
    loader,
    runTime,
    runTimeBytes: installedBytes([...new Set(runTime.map(packageOf))], PROJECT_ROOT),
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

const ratio = (m: Measured) => m.ratio;

function printTable(functions: Measured[], hello: Measured, floor: Measured): void {
  const rows = [...functions, hello, floor].map((m) => [
    m.name,
    kb(m.bytes),
    kb(m.gzipBytes),
    m.runTime.length ? `${[...new Set(m.runTime.map(packageOf))].join('+')} ${kb(m.runTimeBytes)}` : '-',
    m.coldMs.toFixed(1),
    m.cpuMs.toFixed(1),
    ratio(m).toFixed(2),
  ]);
  const header = [
    'function',
    'min KB',
    'gzip KB',
    'run-time KB',
    `wall ms (median of ${RUNS})`,
    'cpu ms',
    'x floor (cpu)',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 3 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function printSummary(functions: Measured[], floor: Measured): void {
  const medianRatio = median(functions.map(ratio));
  const medianBytes = median(functions.map((m) => m.bytes));
  const over = functions.filter((m) => ratio(m) > EACH_TARGET);
  const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER TARGET');
  console.log(
    `\nmedian function cold-process ${median(functions.map((m) => m.cpuMs)).toFixed(1)} ms CPU ` +
      `(${median(functions.map((m) => m.coldMs)).toFixed(1)} ms wall), ` +
      `${medianRatio.toFixed(2)} x the floor beside it (target <= ${MEDIAN_TARGET}: ${verdict(medianRatio <= MEDIAN_TARGET)})`,
  );
  console.log(
    `median bundle ${kb(medianBytes)} KB, ${(medianBytes / floor.bytes).toFixed(2)} x the floor's ${kb(floor.bytes)} KB`,
  );
  const worst = functions.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
  console.log(
    `slowest function ${worst.name} ${ratio(worst).toFixed(2)} x the floor, run-time packages included ` +
      `(target <= ${EACH_TARGET} for each: ${verdict(over.length === 0)}${over.length ? `; over: ${over.map((m) => m.name).join(', ')}` : ''})`,
  );
}

async function main(): Promise<void> {
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  try {
    const built: Built[] = [];
    for (const [name, source] of Object.entries(REFERENCES)) {
      built.push(await bundle(name, { code: source }, path.join(WORK_DIR, name.replace(/\W+/g, '-'))));
    }
    const [helloBuilt, floorBuilt] = built as [Built, Built];
    // The first processes pay for a cold file cache and code cache of node itself: not any function's cost.
    for (let i = 0; i < 3; i++) coldProcessOnce(floorBuilt.loader);
    const floor = measure(floorBuilt, undefined);
    const hello = measure(helloBuilt, floorBuilt);

    const functions: Measured[] = [];
    const missing: string[] = [];
    for (const spec of allFunctionSpecs()) {
      const entry = entryFilePath(spec.entry);
      if (!existsSync(entry)) {
        missing.push(`${spec.id} (${spec.entry})`);
        continue;
      }
      const one = await bundle(spec.id, { file: entry }, path.join(WORK_DIR, spec.id), spec.nativeModules);
      functions.push(measure(one, floorBuilt));
    }

    printTable(functions, hello, floor);
    if (functions.length > 0) printSummary(functions, floor);
    for (const m of functions.filter((f) => f.bytes > floor.bytes + HEAVY_MARGIN_BYTES)) {
      console.log(`\n${m.name}: ${kb(m.bytes - floor.bytes)} KB over the floor; heaviest modules:`);
      for (const [module, bytes] of topModules(m)) console.log(`  ${kb(bytes).padStart(8)} KB  ${module}`);
    }
    if (missing.length) console.log(`\nnot bundled, entry file missing: ${missing.join(', ')}`);
  } finally {
    rmSync(WORK_DIR, { recursive: true, force: true });
  }
}

const USAGE = `usage: npm run report:bundles
Bundles every function as the CDK does and prints each one's size, gzipped size, run-time packages (sharp,
mysql2) and cold-process time with them, beside a hello-world and a DynamoDB-only floor measured alternately. Takes no options; REPORT_RUNS=N sets the cold starts measured (default 5).
example: REPORT_RUNS=9 npm run report:bundles
`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) process.stdout.write(USAGE);
else if (args.length > 0) {
  process.stderr.write(`report:bundles takes no arguments (got ${args.join(' ')})\n${USAGE}`);
  process.exitCode = 2;
} else await main();
