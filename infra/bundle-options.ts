import type { BuildOptions } from 'esbuild';

/**
 * The esbuild options every function is bundled with, in ONE place: the CDK function construct translates them
 * to `NodejsFunction` bundling props and `npm run report:bundles` passes them to esbuild directly, so the report
 * measures exactly what ships.
 *
 * - ESM + `mainFields: module,main`: lets esbuild take the ES build of the AWS SDK and tree-shake it.
 * - `external: []`: the SDK is bundled, not taken from the runtime; a bundled, tree-shaken client loads faster
 *   than the runtime's full copy and pins the version we test with.
 * - The banner gives CommonJS dependencies a `require` inside an ES module.
 * - External source maps without sources: stack traces can be mapped offline without shipping the source or
 *   paying `--enable-source-maps` on every cold start.
 */
export const BUNDLE = {
  format: 'esm',
  platform: 'node',
  target: 'node24',
  minify: true,
  sourcemap: 'external',
  sourcesContent: false,
  mainFields: ['module', 'main'],
  external: [] as string[],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const;

/** The same options for the esbuild JS API (the bundle report). */
export function esbuildOptions(): BuildOptions {
  return {
    bundle: true,
    format: BUNDLE.format,
    platform: BUNDLE.platform,
    target: BUNDLE.target,
    minify: BUNDLE.minify,
    sourcemap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    external: [...BUNDLE.external],
    banner: { js: BUNDLE.banner },
  };
}
