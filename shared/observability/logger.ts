import { InvocationScoped } from '@aws-lambda-powertools/commons/utils/invocation-scoped';
import { Logger, LogLevel } from '@aws-lambda-powertools/logger';
import './invoke-store.ts';

/**
 * Structured JSON logs through Powertools for AWS Lambda, one line each (CloudWatch in the cloud): level,
 * message, timestamp, service (the function), cold_start and the Lambda context (function name, ARN, memory,
 * request id) once an invocation has begun (shared/observability/invocation.ts), then the invocation's keys and
 * the line's own fields.
 *
 * Keys named like credentials are redacted wherever they appear in a line, at any depth, so a careless
 * `logger.info('x', { headers })` cannot leak a password.
 *
 * Call sites keep one shape: `logger.info(message, fields)`. The line goes to the logger of the function whose
 * invocation is running; that choice is per invocation (Powertools' invocation store), so two functions running
 * at once in one process (the local stack) each log under their own name.
 */
type Fields = Record<string, unknown>;

const CREDENTIAL_KEY = /authorization|password|secret|token|pepper|cookie|app_password/i;
const DEFAULT_SERVICE = 'community-api';
const REDACTED = '[redacted]';

/** The JSON replacer every line goes through: a credential-named key gets its value replaced, at any depth. */
export function redactCredentials(key: string, value: unknown): unknown {
  return CREDENTIAL_KEY.test(key) ? REDACTED : value;
}

const loggers = new Map<string, Logger>();

/**
 * The logger of one function, by service name. Made on first use, not at import, so it reads LOG_LEVEL and the
 * initialization type (which decides `cold_start`) after the environment is in place; each function's first
 * invocation in a process is its cold start.
 */
export function functionLogger(service: string): Logger {
  let found = loggers.get(service);
  if (!found) {
    found = new Logger({
      serviceName: service,
      logLevel: levelFromEnvironment(),
      jsonReplacerFn: redactCredentials,
    });
    loggers.set(service, found);
  }
  return found;
}

/** LOG_LEVEL as this project spells it (`warn`, `silent`); Powertools only reads upper-case names from the env. */
function levelFromEnvironment(): (typeof LogLevel)[keyof typeof LogLevel] {
  const name = (process.env.LOG_LEVEL ?? 'info').toUpperCase();
  return (LogLevel as Record<string, (typeof LogLevel)[keyof typeof LogLevel]>)[name] ?? LogLevel.INFO;
}

/** The running invocation's function logger; outside any invocation (module init, scripts), the default one. */
const current = new InvocationScoped<Logger | undefined>('community-api.logger.current', {
  initial: undefined,
});

export function activeLogger(): Logger {
  return current.get() ?? functionLogger(process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE);
}

/** Makes `logger` write through `log` for the rest of this invocation (undefined: back to the default). */
export function useLogger(log: Logger | undefined): void {
  current.set(log);
}

export const logger = {
  debug: (message: string, fields?: Fields) => activeLogger().debug(message, fields ?? {}),
  info: (message: string, fields?: Fields) => activeLogger().info(message, fields ?? {}),
  warn: (message: string, fields?: Fields) => activeLogger().warn(message, fields ?? {}),
  error: (message: string, fields?: Fields) => activeLogger().error(message, fields ?? {}),
};
