import { InvokeStore } from '@aws/lambda-invoke-store';

/**
 * Per-invocation state (log keys, the Lambda context, stored metrics) lives in `globalThis.awslambda.InvokeStore`
 * whenever `AWS_LAMBDA_MAX_CONCURRENCY` is set (through Powertools commons' `InvocationScoped`, which logger.ts and
 * metrics.ts use), and that class throws on the first log line when the variable is set but no store exists. Lambda's runtime creates the store before it loads the
 * handler (this call then returns it). A process that merely inherited the variable has none: a CLI or a test
 * worker started by a process that runs the local Lambda runtime (infra/local/lambda-runtime.ts). Create it for
 * them, before any logging. Nothing happens when the variable is unset (the usual cloud case: one invocation
 * at a time per process).
 */
if (process.env.AWS_LAMBDA_MAX_CONCURRENCY) await InvokeStore.getInstanceAsync();
