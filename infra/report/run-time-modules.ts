import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * What a bundle imports at run time instead of carrying: the packages left external (a catalogue line's
 * `nativeModules`: sharp, mysql2) that its code imports, statically or with `await import()`. The bundle report
 * loads them in each cold start it measures and counts their installed size, so a function is measured as it
 * runs, not as its bundle alone.
 */

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** The package name of a bare specifier: `mysql2/promise` → `mysql2`, `@img/x/y` → `@img/x`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The external, non-builtin specifiers the bundle's output imports (sorted, distinct). */
export function runTimeImports(metafile: Metafile): string[] {
  const specifiers = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !BUILTINS.has(imported.path) && !imported.path.startsWith('.')) {
        specifiers.add(imported.path);
      }
    }
  }
  return [...specifiers].sort();
}

function directoryBytes(directory: string): number {
  let total = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    // Nested installs are their own packages, counted when a dependency names them.
    if (entry.isDirectory()) total += entry.name === 'node_modules' ? 0 : directoryBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/**
 * Bytes on disk of the installed packages and every dependency they pull in (optional ones when installed: sharp's
 * platform binaries), as this machine's `node_modules` holds them.
 */
export function installedBytes(packages: readonly string[], projectRoot: string): number {
  const seen = new Set<string>();
  let total = 0;
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const directory = path.join(projectRoot, 'node_modules', name);
    if (!existsSync(directory)) return;
    total += directoryBytes(directory);
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      visit(dependency);
    }
  };
  for (const name of packages) visit(name);
  return total;
}
