/**
 * The runtime interface client of a local bundled function: the program an execution environment runs, as
 * Lambda's Node.js runtime does. It imports the handler from the bundled asset (`LAMBDA_TASK_ROOT` + `_HANDLER`),
 * then loops on the Runtime API (`AWS_LAMBDA_RUNTIME_API`): take the next event, run the handler with its context,
 * post the result or the error. One invocation at a time; the process (and its module state) stays warm between
 * them. It imports nothing of the repository: it runs plain Node with type stripping, beside the bundle.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const api = `http://${process.env.AWS_LAMBDA_RUNTIME_API}/2018-06-01/runtime`;
const [file = 'index', exportName = 'handler'] = (process.env._HANDLER ?? 'index.handler').split('.');

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function call(method: string, url: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // No timeout: `next` waits as long as the environment stays idle.
    const outgoing = request(url, { method, headers: { 'content-type': 'application/json' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const errorBody = (error: unknown) => {
  const err = error instanceof Error ? error : new Error(String(error));
  return JSON.stringify({
    errorType: err.name,
    errorMessage: err.message,
    stackTrace: (err.stack ?? '').split('\n'),
  });
};

async function loadHandler(): Promise<(event: unknown, context: unknown) => Promise<unknown>> {
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  let lastError: unknown;
  for (const extension of ['.mjs', '.js', '.cjs']) {
    try {
      const loaded = (await import(pathToFileURL(join(root, `${file}${extension}`)).href)) as Record<
        string,
        unknown
      >;
      const handler = loaded[exportName];
      if (typeof handler !== 'function') throw new Error(`${file}.${exportName} is not a function`);
      return handler as (event: unknown, context: unknown) => Promise<unknown>;
    } catch (error) {
      lastError = error;
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') break;
    }
  }
  throw lastError;
}

async function main(): Promise<void> {
  let handler: (event: unknown, context: unknown) => Promise<unknown>;
  try {
    handler = await loadHandler();
  } catch (error) {
    await call('POST', `${api}/init/error`, errorBody(error)).catch(() => undefined);
    process.exit(1);
  }
  for (;;) {
    let next: Answer;
    try {
      next = await call('GET', `${api}/invocation/next`);
    } catch {
      // The runtime API is gone: the stack stopped (or was killed). An environment never outlives it.
      process.exit(0);
    }
    if (next.status !== 200) process.exit(0);
    const requestId = String(next.headers['lambda-runtime-aws-request-id']);
    const deadline = Number(next.headers['lambda-runtime-deadline-ms']);
    const traceId = next.headers['lambda-runtime-trace-id'];
    if (typeof traceId === 'string') process.env._X_AMZN_TRACE_ID = traceId;
    const context = {
      callbackWaitsForEmptyEventLoop: true,
      functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
      functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
      invokedFunctionArn: String(next.headers['lambda-runtime-invoked-function-arn']),
      memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
      awsRequestId: requestId,
      logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
      logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    let outcome: { path: string; body: string };
    try {
      const result = await handler(JSON.parse(next.body), context);
      outcome = { path: 'response', body: JSON.stringify(result ?? null) };
    } catch (error) {
      outcome = { path: 'error', body: errorBody(error) };
    }
    await call('POST', `${api}/invocation/${requestId}/${outcome.path}`, outcome.body).catch(() =>
      process.exit(0),
    );
  }
}

void main();
