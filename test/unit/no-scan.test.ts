import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md §6: no Scan in any request path. Every list is a key condition on the table or a GSI, so no
 * runtime file under functions/ or shared/ may issue a Scan (command class, paginator, or raw operation name).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const RUNTIME_DIRECTORIES = ['functions', 'shared'];

const SCAN_USAGE = [
  /\bScanCommand\b/,
  /\bparallelScan\b/i,
  /\bpaginateScan\b/,
  /\bScanInput\b/,
  /\.scan\s*\(/,
  /['"`]Scan['"`]/,
  /\bnew\s+Scan\b/,
];

function runtimeFiles(): string[] {
  return RUNTIME_DIRECTORIES.flatMap((directory) =>
    readdirSync(join(ROOT, directory), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|js|mjs|cjs)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

/** Comments may say "no Scan"; only code counts. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('no Scan in runtime code', () => {
  const files = runtimeFiles();

  it('finds the runtime files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s issues no Scan', (_name, file) => {
    const code = withoutComments(readFileSync(file, 'utf8'));
    for (const pattern of SCAN_USAGE) expect(code, String(pattern)).not.toMatch(pattern);
  });

  it('the detector catches the forms it is meant to catch', () => {
    const samples = [
      "import { ScanCommand } from '@aws-sdk/lib-dynamodb';",
      'await client.scan({ TableName });',
      "send(new Scan({ TableName: 't' }))",
      "const op = 'Scan';",
      'for await (const page of paginateScan(config, input)) {}',
    ];
    for (const sample of samples) {
      expect(
        SCAN_USAGE.some((pattern) => pattern.test(withoutComments(sample))),
        sample,
      ).toBe(true);
    }
    expect(SCAN_USAGE.some((pattern) => pattern.test(withoutComments('// never a Scan here')))).toBe(false);
  });
});
