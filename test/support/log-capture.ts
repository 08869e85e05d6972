import { vi } from 'vitest';

/**
 * Captures what this process writes to stdout and stderr (Powertools writes each log and EMF line there) and
 * parses the JSON lines, so a test can assert on the fields a line carries. Nothing captured reaches the test
 * output. Call `restore()` when done.
 */
export interface CapturedOutput {
  /** Every JSON line written so far, in order. */
  lines(): Record<string, unknown>[];
  restore(): void;
}

export function captureOutput(): CapturedOutput {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  return {
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    restore: () => {
      stdout.mockRestore();
      stderr.mockRestore();
    },
  };
}
