import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/emulators.ts';
import type { StackFile } from '../../shared/config/local-stack-files.ts';
import { adminCli, type NpmStart, npmStart } from '../support/npm-start.ts';
import { commandLine, listeners, processTree, waitUntilGone } from '../support/processes.ts';

/**
 * The lifecycle of `npm start` as process managers and developers drive it: npm's own pid gets the signal, a
 * second start on a busy data folder is refused, two folders run side by side, the emulators listen on loopback
 * only, and a dead DynamoDB Local stops the stack instead of leaving it serving 500s. Each case leaves no process.
 * The cases run one after the other: several JVMs starting at once on a small machine outlive their readiness
 * timeout.
 */
const started: NpmStart[] = [];
const folders: string[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  folders.push(dir);
  return dir;
}

async function start(dataDir: string, port?: number): Promise<NpmStart & { port: number }> {
  const chosen = port ?? (await freePort());
  const stack = npmStart(dataDir, chosen);
  started.push(stack);
  return Object.assign(stack, { port: chosen });
}

const stackFile = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackFile;

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

afterAll(async () => {
  // Whatever a failed assertion left running: only the processes these tests started.
  for (const stack of started)
    for (const pid of processTree(stack.pid).reverse()) process.kill(pid, 'SIGKILL');
  await waitUntilGone(started.flatMap((stack) => processTree(stack.pid)));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('refuses a second start on a busy folder, runs two folders side by side on loopback only, and stops everything on SIGTERM to npm', async () => {
    const first = folder();
    const second = folder();
    // A lock left by a stack that was killed outright: its pid is gone, so the start takes the folder over.
    const dead = spawnSync('true').pid;
    writeFileSync(join(first, 'stack.lock'), `${JSON.stringify({ pid: dead })}\n`);

    // One after the other: two JVMs starting at once on a busy machine may outlive their readiness timeout.
    const a = await start(first);
    const apiA = await a.ready;
    const c = await start(second);
    const apiC = await c.ready;
    const stackA = stackFile(first).pid;
    expect(JSON.parse(readFileSync(join(first, 'stack.lock'), 'utf8')).pid).toBe(stackA);

    // The same folder again, on another port: refused, with the reason and the way out.
    const b = await start(first);
    const refused = await b.exited;
    expect(refused.code).not.toBe(0);
    expect(b.output()).toContain(`The data folder ${first} is in use by another local stack (pid ${stackA})`);
    expect(b.output()).toContain('--data-dir');
    expect(processTree(b.pid)).toEqual([]);

    // Every listener of both stacks (gateway, fauxqs, SES emulator, DynamoDB Local) is on 127.0.0.1.
    for (const stack of [a, c]) {
      const tree = processTree(stack.pid);
      expect(tree.some((pid) => commandLine(pid).includes('DynamoDBLocal'))).toBe(true);
      const sockets = listeners(tree);
      expect(sockets.length).toBeGreaterThanOrEqual(4);
      expect(sockets.map((socket) => socket.address)).toEqual(sockets.map(() => '127.0.0.1'));
      expect(sockets.map((socket) => socket.port)).toContain(stack.port);
    }

    // The CLI addresses a stack by its folder: a user made on the second exists there only.
    const created = await adminCli(second, 'user:create', '--login', 'side', '--email', 'side@example.com');
    expect(created.code, created.stderr).toBe(0);
    const { app_password: password } = JSON.parse(created.stdout) as { app_password: string };
    const onSecond = await fetch(`${apiC}/notifications`, {
      headers: { authorization: basic('side', password) },
    });
    expect(onSecond.status).toBe(200);
    const onFirst = await fetch(`${apiA}/notifications`, {
      headers: { authorization: basic('side', password) },
    });
    expect(onFirst.status).toBe(401);

    // SIGTERM to npm's own pid (what a process manager sends): the whole first stack goes, the second stays.
    const treeA = processTree(a.pid);
    process.kill(a.pid, 'SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect(await waitUntilGone(treeA)).toEqual([]);
    expect(listeners(treeA)).toEqual([]);
    expect(existsSync(join(first, 'stack.lock'))).toBe(false);
    expect(existsSync(join(first, 'stack.json'))).toBe(false);
    expect((await fetch(`${apiC}/openapi.json`)).status).toBe(200);

    // SIGTERM to the stack process itself (npm's child): the same.
    const treeC = processTree(c.pid);
    process.kill(stackFile(second).pid, 'SIGTERM');
    expect((await c.exited).code).toBe(0);
    expect(await waitUntilGone(treeC)).toEqual([]);
  }, 240_000);

  it('says so, stops everything and exits non-zero when DynamoDB Local dies', async () => {
    const stack = await start(folder());
    await stack.ready;
    const tree = processTree(stack.pid);
    const jvm = tree.find((pid) => commandLine(pid).includes('DynamoDBLocal'));
    expect(jvm).toBeDefined();
    process.kill(jvm!, 'SIGKILL');
    const exit = await stack.exited;
    expect(exit.code).not.toBe(0);
    expect(stack.output()).toContain('DynamoDB Local killed by SIGKILL');
    expect(await waitUntilGone(tree)).toEqual([]);
  }, 150_000);

  it('stops when npm itself is killed outright (SIGKILL forwards nothing)', async () => {
    const stack = await start(folder());
    await stack.ready;
    const tree = processTree(stack.pid);
    expect(tree.length).toBeGreaterThanOrEqual(3); // npm, the stack, DynamoDB Local
    process.kill(stack.pid, 'SIGKILL');
    expect(await waitUntilGone(tree)).toEqual([]);
  }, 150_000);
});
