import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundle-options.ts';
import { PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';

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
