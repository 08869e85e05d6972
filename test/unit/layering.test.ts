import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of ARCHITECTURE.md §5, checked on the source text: domain code knows nothing of Lambda, middy,
 * HTTP or the HTTP contracts; the HTTP layer never reaches into storage keys.
 */
const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g),
  ].map((match) => (match[1] ?? match[2]) as string);
}

describe('layering', () => {
  const domainFiles = sourceFiles('shared/domain');

  it.each(domainFiles)('%s imports no Lambda, middy, HTTP or contract module', (file) => {
    const forbidden = importsOf(file).filter(
      (source) =>
        source.startsWith('@middy/') ||
        source === 'aws-lambda' ||
        /(^|\/)http\//.test(source) ||
        /(^|\/)contracts\//.test(source),
    );
    expect(forbidden).toEqual([]);
  });

  it.each(sourceFiles('shared/http'))('%s builds no storage keys', (file) => {
    expect(importsOf(file).filter((source) => /db\/keys/.test(source))).toEqual([]);
  });
});
