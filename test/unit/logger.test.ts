import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import {
  appendLogKeys,
  beginInvocation,
  endInvocation,
  removeLogKeys,
} from '../../shared/observability/invocation.ts';
import { logger } from '../../shared/observability/logger.ts';
import { type CapturedOutput, captureOutput } from '../support/log-capture.ts';

/**
 * The logger every function uses (our own since issue 21 item 21, with Powertools' field names): redaction, the
 * Lambda context, cold start, key lifetime, levels, streams, and values JSON cannot write by itself.
 */
let output: CapturedOutput | undefined;

beforeAll(() => {
  // What Lambda sets; read when a function's logger is made (on its first line, after this).
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
  process.env.LOG_LEVEL = 'info';
});
afterEach(() => output?.restore());

const context = (functionName: string, awsRequestId: string): Context =>
  ({
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
  }) as Context;

describe('logger', () => {
  it('redacts credential-named fields at any depth, in errors too', () => {
    output = captureOutput();
    logger.info('with secrets', {
      headers: { Authorization: 'Basic c2VjcmV0', 'content-type': 'application/json' },
      users: [{ login: 'ann', password: 'hunter2', app_password: 'abcd EFGH' }],
      cookie: 'session=1',
      pepper: 'spice',
      clientSecret: 's3cr3t',
      refresh_token: 'tok',
      error: Object.assign(new Error('failed'), { accessToken: 'leaked?' }),
    });
    output.restore();
    const [line] = output.lines();
    const text = JSON.stringify(line);
    for (const secret of [
      'c2VjcmV0',
      'hunter2',
      'abcd EFGH',
      'session=1',
      'spice',
      's3cr3t',
      'tok"',
      'leaked?',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({
      message: 'with secrets',
      headers: { Authorization: '[redacted]', 'content-type': 'application/json' },
      users: [{ login: 'ann', password: '[redacted]', app_password: '[redacted]' }],
      error: { name: 'Error', message: 'failed', accessToken: '[redacted]' },
    });
  });

  it('adds the Lambda context and the cold-start flag, and drops invocation keys at the end', () => {
    output = captureOutput();
    beginInvocation('probeFunction', context('probeFunction', 'req-1'), { requestId: 'api-1' });
    logger.info('first');
    endInvocation('probeFunction');
    beginInvocation('probeFunction', context('probeFunction', 'req-2'), {});
    logger.info('second');
    endInvocation('probeFunction');
    output.restore();
    const [first, second] = output.lines();
    expect(first).toMatchObject({
      service: 'probeFunction',
      cold_start: true,
      function_name: 'probeFunction',
      function_request_id: 'req-1',
      function_memory_size: '512',
      requestId: 'api-1',
    });
    expect(second).toMatchObject({ cold_start: false, function_request_id: 'req-2' });
    expect(second).not.toHaveProperty('requestId');
  });

  it('writes at LOG_LEVEL and above: debug and info to stdout, warnings and errors to stderr', () => {
    const written = { stdout: [] as string[], stderr: [] as string[] };
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.stdout.push(String(chunk));
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.stderr.push(String(chunk));
      return true;
    });
    try {
      process.env.LOG_LEVEL = 'warn';
      logger.debug('d');
      logger.info('i');
      logger.warn('w');
      logger.error('e');
      process.env.LOG_LEVEL = 'silent';
      logger.error('never');
      process.env.LOG_LEVEL = 'debug';
      logger.debug('d2');
    } finally {
      process.env.LOG_LEVEL = 'info';
      stdout.mockRestore();
      stderr.mockRestore();
    }
    const levels = (lines: string[]) =>
      lines
        .map((line) => JSON.parse(line) as { level: string; message: string })
        .map((l) => `${l.level} ${l.message}`);
    expect(levels(written.stdout)).toEqual(['DEBUG d2']);
    expect(levels(written.stderr)).toEqual(['WARN w', 'ERROR e']);
  });

  it('writes cycles, bigints and an error’s cause without failing; keys of part of an invocation come and go', () => {
    output = captureOutput();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    beginInvocation('probeFunction', undefined, { requestId: 'api-3' });
    appendLogKeys({ messageId: 'm-1', level: 'not a level' });
    logger.info('odd values', {
      cyclic,
      big: 12345678901234567890n,
      error: new Error('outer', { cause: new Error('inner') }),
      message: 'not the message',
    });
    removeLogKeys(['messageId']);
    logger.info('after');
    endInvocation('probeFunction');
    output.restore();
    const [line, after] = output.lines();
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'odd values',
      service: 'probeFunction',
      requestId: 'api-3',
      messageId: 'm-1',
      cyclic: { name: 'loop' },
      big: '12345678901234567890',
      error: { name: 'Error', message: 'outer', cause: { name: 'Error', message: 'inner' } },
    });
    expect(line).not.toHaveProperty('cyclic.self');
    expect(after).toMatchObject({ message: 'after', requestId: 'api-3' });
    expect(after).not.toHaveProperty('messageId');
  });
});
