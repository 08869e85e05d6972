/**
 * Structured JSON logs, one line each, to stdout (CloudWatch in the cloud). Keys named like credentials are
 * redacted wherever they appear, so a careless `logger.info('x', { headers })` cannot leak a password.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const REDACTED = /authorization|password|secret|token|pepper|cookie|app_password/i;

let baseFields: Record<string, unknown> = {};

function threshold(): number {
  const level = (process.env.LOG_LEVEL ?? 'info') as Level | 'silent';
  return ORDER[level] ?? ORDER.info;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((entry) => redact(entry, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [
      key,
      REDACTED.test(key) ? '[redacted]' : redact(entry, depth + 1),
    ]),
  );
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    message,
    ...baseFields,
    ...(redact(fields ?? {}) as Record<string, unknown>),
  });
  process.stdout.write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
  /** Fields added to every line until replaced (the request id of the invocation in flight). */
  setContext(fields: Record<string, unknown>): void {
    baseFields = fields;
  },
};
