import { InvocationScoped } from '@aws-lambda-powertools/commons/utils/invocation-scoped';
import { getXRayTraceIdFromEnv } from '@aws-lambda-powertools/commons/utils/env';
import type { Context } from 'aws-lambda';
import './invoke-store.ts';

/**
 * Structured JSON logs, one line each (CloudWatch in the cloud): level, message, timestamp, service (the function),
 * cold_start and the Lambda context (function name, ARN, memory, request id) once an invocation has begun
 * (shared/observability/invocation.ts), the X-Ray trace id when there is one, then the invocation's keys and the
 * line's own fields. The fields and their names are those of Powertools' logger, which this small module replaced
 * (issue 21, item 21: ~16 KB in every function for the few features used here).
 *
 * Keys named like credentials are redacted wherever they appear in a line, at any depth, so a careless
 * `logger.info('x', { headers })` cannot leak a password. Errors are written as their name, location, message,
 * stack, cause and own fields (redacted too).
 *
 * Call sites keep one shape: `logger.info(message, fields)`. The line goes to the logger of the function whose
 * invocation is running; that choice and the invocation's keys are per invocation (Powertools' invocation store,
 * the one piece kept: Lambda's runtime provides it), so two functions running at once in one process (the local
 * stack) each log under their own name with their own keys.
 */
type Fields = Record<string, unknown>;
type Level = 'debug' | 'info' | 'warn' | 'error';

const CREDENTIAL_KEY = /authorization|password|secret|token|pepper|cookie|app_password/i;
const DEFAULT_SERVICE = 'community-api';
const REDACTED = '[redacted]';
const THRESHOLDS: Record<string, number> = { debug: 8, info: 12, warn: 16, error: 20, silent: 28 };
/** Fields every line sets itself: a line's or an invocation's field of that name is dropped. */
const RESERVED = new Set(['level', 'message', 'sampling_rate', 'service', 'timestamp']);

/** The JSON replacer every line goes through: a credential-named key gets its value replaced, at any depth. */
export function redactCredentials(key: string, value: unknown): unknown {
  return CREDENTIAL_KEY.test(key) ? REDACTED : value;
}

/** What an invocation adds to each of its lines. */
interface Scope {
  lambda: Fields | undefined;
  keys: Fields;
}

/** The logger of one function (its service name): one per function and process. */
export class FunctionLogger {
  readonly service: string;
  /** Each function's first invocation in a process is its cold start (when Lambda says it starts on demand). */
  #coldStart: boolean;
  readonly #scope = new InvocationScoped<Scope>('community-api.logger.scope', {
    fresh: () => ({ lambda: undefined, keys: {} }),
  });

  constructor(service: string) {
    this.service = service;
    this.#coldStart = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
  }

  addContext(context: Context): void {
    const coldStart = this.#coldStart;
    this.#coldStart = false;
    this.#scope.get().lambda = {
      cold_start: coldStart,
      function_arn: context.invokedFunctionArn,
      function_memory_size: context.memoryLimitInMB,
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
    };
  }

  appendKeys(keys: Fields): void {
    const scope = this.#scope.get();
    for (const [name, value] of Object.entries(keys)) if (!RESERVED.has(name)) scope.keys[name] = value;
  }

  removeKeys(names: readonly string[]): void {
    const { keys } = this.#scope.get();
    for (const name of names) delete keys[name];
  }

  /** Drops the invocation's keys and context. */
  resetKeys(): void {
    this.#scope.reset();
  }

  debug(message: string, fields: Fields = {}): void {
    this.#write('debug', message, fields);
  }
  info(message: string, fields: Fields = {}): void {
    this.#write('info', message, fields);
  }
  warn(message: string, fields: Fields = {}): void {
    this.#write('warn', message, fields);
  }
  error(message: string, fields: Fields = {}): void {
    this.#write('error', message, fields);
  }

  #write(level: Level, message: string, fields: Fields): void {
    if ((THRESHOLDS[level] ?? 0) < threshold()) return;
    const { lambda, keys } = this.#scope.get();
    const line: Fields = {
      level: level.toUpperCase(),
      message,
      timestamp: new Date().toISOString(),
      service: this.service,
      ...lambda,
      xray_trace_id: getXRayTraceIdFromEnv(),
      ...keys,
    };
    for (const [name, value] of Object.entries(fields)) if (!RESERVED.has(name)) line[name] = value;
    const text = `${JSON.stringify(line, replacer())}\n`;
    // stdout for debug and info, stderr for warnings and errors (as a console would).
    if (level === 'warn' || level === 'error') process.stderr.write(text);
    else process.stdout.write(text);
  }
}

/** LOG_LEVEL as this project spells it (`debug`…`error`, `silent`), read on each line; unknown: info. */
function threshold(): number {
  return THRESHOLDS[(process.env.LOG_LEVEL ?? 'info').trim().toLowerCase()] ?? (THRESHOLDS.info as number);
}

/**
 * Redaction first, then what JSON cannot write by itself: errors (their enumerable fields are not the ones that
 * say what happened), bigints, and cycles (a repeated ancestor is left out).
 */
function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, key: string, value: unknown): unknown {
    let replaced = redactCredentials(key, value);
    if (replaced instanceof Error) replaced = formatError(replaced);
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(replaced)) return undefined;
      ancestors.push(replaced);
    }
    return replaced;
  };
}

function formatError(error: Error): Fields {
  const { name, message, stack, cause } = error;
  const formatted: Fields = {
    name,
    location: locationOf(stack),
    message,
    stack,
    cause: cause instanceof Error ? formatError(cause) : cause,
  };
  for (const [field, value] of Object.entries(error)) {
    if (!['name', 'message', 'stack', 'cause'].includes(field)) formatted[field] = value;
  }
  return formatted;
}

/** `file:line` of the first stack frame that names one. */
function locationOf(stack: string | undefined): string {
  for (const frame of stack?.split('\n') ?? []) {
    const match = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.exec(frame);
    if (match) return `${match[1]}:${Number(match[2])}`;
  }
  return '';
}

const loggers = new Map<string, FunctionLogger>();

/**
 * The logger of one function, by service name. Made on first use, not at import, so it reads the initialization
 * type (which decides `cold_start`) after the environment is in place.
 */
export function functionLogger(service: string): FunctionLogger {
  let found = loggers.get(service);
  if (!found) {
    found = new FunctionLogger(service);
    loggers.set(service, found);
  }
  return found;
}

/** The running invocation's function logger; outside any invocation (module init, scripts), the default one. */
const current = new InvocationScoped<FunctionLogger | undefined>('community-api.logger.current', {
  initial: undefined,
});

export function activeLogger(): FunctionLogger {
  return current.get() ?? functionLogger(process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE);
}

/** Makes `logger` write through `log` for the rest of this invocation (undefined: back to the default). */
export function useLogger(log: FunctionLogger | undefined): void {
  current.set(log);
}

export const logger = {
  debug: (message: string, fields?: Fields) => activeLogger().debug(message, fields),
  info: (message: string, fields?: Fields) => activeLogger().info(message, fields),
  warn: (message: string, fields?: Fields) => activeLogger().warn(message, fields),
  error: (message: string, fields?: Fields) => activeLogger().error(message, fields),
};
