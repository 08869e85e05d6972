import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { beginInvocation, endInvocation } from '../../shared/observability/invocation.ts';
import { logger } from '../../shared/observability/logger.ts';
import { type CapturedOutput, captureOutput } from '../support/log-capture.ts';

/** The Powertools logger as every function uses it: redaction, the Lambda context, cold start, key lifetime. */
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
});
