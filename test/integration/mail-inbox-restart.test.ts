import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, LOCAL_CREDENTIALS, LOCAL_REGION } from '../../infra/local/emulators.ts';
import type { StackFile } from '../../shared/config/local-stack-files.ts';
import { type NpmStart, npmStart } from '../support/npm-start.ts';
import { processTree, waitUntilGone } from '../support/processes.ts';

/**
 * The mail inbox of `npm start` survives a restart: an e-mail sent before it (an invitation, whose token exists
 * only in that e-mail) is still listed after it, at the same inbox address.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'mail-inbox-restart-'));
const started: NpmStart[] = [];

afterAll(async () => {
  for (const stack of started)
    for (const pid of processTree(stack.pid).reverse()) process.kill(pid, 'SIGKILL');
  await waitUntilGone(started.flatMap((stack) => processTree(stack.pid)));
  rmSync(dataDir, { recursive: true, force: true });
});

const stackFile = () => JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackFile;

async function startStack(port: number): Promise<NpmStart> {
  const stack = npmStart(dataDir, port);
  started.push(stack);
  await stack.ready;
  return stack;
}

async function stopStack(stack: NpmStart): Promise<void> {
  const tree = processTree(stack.pid);
  process.kill(stack.pid, 'SIGTERM');
  expect((await stack.exited).code).toBe(0);
  expect(await waitUntilGone(tree)).toEqual([]);
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('npm start did not print its addresses');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function inbox(sesUrl: string): Promise<Array<{ messageId: string; subject: string }>> {
  const response = await fetch(`${sesUrl}/store`);
  return ((await response.json()) as { emails: Array<{ messageId: string; subject: string }> }).emails;
}

describe('the mail inbox of npm start', () => {
  it('keeps an e-mail sent before a restart, at the same address', async () => {
    const port = await freePort();
    const first = await startStack(port);
    const before = stackFile().sesUrl;
    const ses = new SESClient({ endpoint: before, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const subject = `Kept across restarts ${Date.now()}`;
    const sent = await ses.send(
      new SendEmailCommand({
        Source: 'community@example.com',
        Destination: { ToAddresses: ['invitee@example.com'] },
        Message: { Subject: { Data: subject }, Body: { Text: { Data: 'Accept here' } } },
      }),
    );
    ses.destroy();
    expect((await inbox(before)).map((mail) => mail.messageId)).toContain(sent.MessageId);
    await stopStack(first);

    const second = await startStack(port);
    const after = stackFile().sesUrl;
    expect(after).toBe(before);
    // Printed after `ready`: wait for the line itself.
    await until(() => second.output().includes('\nopenapi '));
    expect(second.output()).toContain(`mail inbox ${after}/`);
    const kept = (await inbox(after)).filter((mail) => mail.messageId === sent.MessageId);
    expect(kept).toEqual([expect.objectContaining({ subject })]);
    await stopStack(second);
  }, 240_000);
});
