import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NativeModule } from '../../shared/catalogue/types.ts';

/**
 * Lean functions (issue 21, item 21). Code bundled into a function imports statically: esbuild bundles an `import()`
 * of bundled code as a lazily initialised module graph, which it no longer tree-shakes (`import('./query-page.ts')`
 * put the whole DynamoDB client, all commands and waiters, into every list route: +52 KB; the Secrets Manager
 * client went in whole: +29 KB). `import()` is only for the packages installed beside a bundle instead of in it
 * (the catalogue's `nativeModules`), which a function loads when it first needs them. The operator CLI is no
 * function, and loads its commands on demand.
 */
const ROOT = join(import.meta.dirname, '../..');
const RUN_TIME_PACKAGES: readonly NativeModule[] = ['sharp', 'mysql2'];

function bundledSources(): string[] {
  return ['shared', 'functions'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
      .filter((file) => !file.startsWith('functions/cli/')),
  );
}

describe('imports of bundled code', () => {
  it('are static, but for the run-time packages', () => {
    const dynamic = bundledSources().flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bimport\(\s*['"]([^'"]+)['"]/g)]
        .map((match) => match[1] as string)
        .filter((specifier) => !RUN_TIME_PACKAGES.some((name) => specifier.split('/')[0] === name))
        .map((specifier) => `${file}: import('${specifier}')`),
    );
    expect(dynamic).toEqual([]);
  });

  it('keep Powertools Metrics to the code that counts metrics', () => {
    const importers = bundledSources().filter((file) =>
      /from '@aws-lambda-powertools\/metrics'/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(importers).toEqual(['shared/observability/metrics.ts']);
    // The invocation's end reaches it through a hook metrics.ts registers, never by importing it.
    const invocation = readFileSync(join(ROOT, 'shared/observability/invocation.ts'), 'utf8');
    expect(invocation).not.toMatch(/from '\.\/metrics\.ts'/);
  });

  it('never reach Powertools idempotency or logger (replays and logs are our own small code)', () => {
    // ~42 KB and ~16 KB minified in every write, resp. every function, for the few features used here.
    const importers = bundledSources().filter((file) =>
      /from '@aws-lambda-powertools\/(idempotency|logger)(\/[^']*)?'/.test(
        readFileSync(join(ROOT, file), 'utf8'),
      ),
    );
    expect(importers).toEqual([]);
  });

  it('keep Idempotency-Key replays to the factories of writes', () => {
    // Reads never replay, so the shared factory takes the layer from write-handler.ts (and the form factory of
    // uploads) and imports only its type: a GET function's bundle carries none of it.
    const importers = bundledSources().filter((file) =>
      /^import (?!type )[^;]*from '\.\/idempotency\.ts'/m.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(importers).toEqual(['shared/http/write-handler.ts']);
  });

  it('for their effect alone name a module the package declares to have side effects', () => {
    // package.json declares the project's modules free of side effects, so esbuild drops a module none of whose
    // exports a function uses (with what it imports): an import for effect alone would vanish from the bundle
    // unless its module is listed there.
    const declared = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects: string[] }
    ).sideEffects;
    const undeclared = bundledSources().flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import '(\.[^']+)';/gm)]
        .map((match) => `./${relative(ROOT, join(ROOT, file, '..', match[1] as string))}`)
        .filter((target) => !declared.includes(target))
        .map((target) => `${file}: ${target}`),
    );
    expect(undeclared).toEqual([]);
  });
});
