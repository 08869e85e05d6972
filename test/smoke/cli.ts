import { runSmoke } from './smoke-checks.ts';

/** `npm run smoke -- <base URL ending in /v2>` (or SMOKE_BASE_URL): exits 1 when any check fails. */
const baseUrl = process.argv[2] ?? process.env.SMOKE_BASE_URL;
if (!baseUrl) {
  process.stderr.write('usage: npm run smoke -- https://<api>/v2   (or SMOKE_BASE_URL)\n');
  process.exit(2);
}
const results = await runSmoke(baseUrl);
for (const result of results) {
  process.stdout.write(
    `${result.error ? 'FAIL' : 'ok  '} ${result.name}${result.error ? `: ${result.error}` : ''}\n`,
  );
}
const failed = results.filter((result) => result.error).length;
process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
