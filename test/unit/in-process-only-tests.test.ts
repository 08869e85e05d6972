import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The bundled mode (`npm run test:bundled`) runs the API tests against each function in its own processes, where the
 * in-process DynamoDB meter's `x-local-dynamodb` header does not exist: every API test file that reads it must be in
 * vitest.config.ts's IN_PROCESS_ONLY list, or the bundled run fails on it (as topics-read-copies once did).
 */
describe('API tests that read the in-process meter', () => {
  it('are all kept out of the bundled mode', () => {
    const config = readFileSync('vitest.config.ts', 'utf8');
    const listed = config.slice(
      config.indexOf('const IN_PROCESS_ONLY'),
      config.indexOf('];', config.indexOf('const IN_PROCESS_ONLY')),
    );
    const metered = readdirSync('test/api')
      .filter((file) => file.endsWith('.test.ts'))
      .filter((file) => readFileSync(`test/api/${file}`, 'utf8').includes('meteredFigures('))
      .map((file) => `test/api/${file}`);
    expect(metered.length).toBeGreaterThan(0);
    expect(metered.filter((file) => !listed.includes(`'${file}'`))).toEqual([]);
  });
});
