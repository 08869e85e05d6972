import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/emulators.ts';
import { testSource } from '../support/migrations.ts';
import { cleanEnvironment, type NpmStart, npmStart } from '../support/npm-start.ts';
import { processTree, waitUntilGone } from '../support/processes.ts';

/**
 * The README's shell snippets run as pasted: every block fenced `sh` is run by bash, in the README's order, against
 * a fresh `npm start` of its own (`-e -o pipefail`: any failing command fails its block). Blocks fenced
 * `sh no-run` start a server or run for minutes (npm start, npm ci, npm test, synth, deploy); they are only checked
 * to be that. The README's fixed addresses are those of this run: the stack's port for `127.0.0.1:3000`, the test
 * run's MariaDB server for `root@127.0.0.1:3306`; the CLI finds the stack by LOCAL_DATA_DIR, as it would `.local`.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const DEMO_DATABASE = 'bp_demo';

interface Block {
  readonly line: number;
  readonly info: string;
  readonly text: string;
}

function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh\b.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    blocks.push({ line: start + 1, info: open[1]!.trim(), text: body.join('\n') });
  }
  return blocks;
}

const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
const runnable = blocks.filter((block) => block.info === 'sh');
const notRun = blocks.filter((block) => block.info !== 'sh');

const dataDir = mkdtempSync(join(tmpdir(), 'readme-snippets-'));
const source = testSource();
let stack: NpmStart | undefined;
let origin = '';

beforeAll(async () => {
  const port = await freePort();
  // As the README says: the BuddyPress source is given when the stack starts.
  stack = npmStart(dataDir, port, { BUDDYPRESS_URL: `${source.serverUrl}/${DEMO_DATABASE}` });
  origin = new URL(await stack.ready).origin;
}, 120_000);

afterAll(async () => {
  if (stack) {
    const tree = processTree(stack.pid);
    for (const pid of [...tree].reverse()) process.kill(pid, 'SIGKILL');
    await waitUntilGone(tree);
  }
  rmSync(dataDir, { recursive: true, force: true });
  const connection = await mysql.createConnection({ uri: source.serverUrl });
  await connection.query(`DROP DATABASE IF EXISTS \`${DEMO_DATABASE}\``);
  await connection.end();
});

function bash(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: cleanEnvironment({ LOCAL_DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => done({ code, output }));
  });
}

describe('README.md shell snippets', () => {
  it('has runnable snippets, and every other one starts a server, runs for minutes or calls the cloud', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(4);
    for (const block of runnable) {
      expect(block.text, `README.md:${block.line}: fence it \`sh no-run\``).not.toMatch(
        /npm (start|ci|test)\b/,
      );
    }
    for (const block of notRun) {
      expect(block.info, `README.md:${block.line}`).toBe('sh no-run');
      expect(block.text, `README.md:${block.line}`).toMatch(
        /npm (start|ci|test)\b|npm run synth|cdk deploy|^aws [a-z]/m,
      );
    }
  });

  it('runs every runnable snippet as pasted, in order', async () => {
    for (const block of runnable) {
      const script = block.text
        .replaceAll('http://127.0.0.1:3000', origin)
        .replaceAll('mysql://root@127.0.0.1:3306', source.serverUrl);
      const result = await bash(script);
      expect(result.code, `README.md:${block.line}\n${block.text}\n--- output:\n${result.output}`).toBe(0);
    }
  }, 300_000);
});
