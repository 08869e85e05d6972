import * as v from 'valibot';
import { AppError } from '../errors/app-error.ts';
import type { AnySchema } from '../contracts/operation.ts';
import { clip, listNames, MAX_ECHOED_NAMES } from './echo-limits.ts';

/**
 * Valibot issues → the WordPress REST conventions of decisions.md: a missing required parameter is
 * `rest_missing_callback_param` with `data.params` listing names; anything else present but invalid is
 * `rest_invalid_param` with `data.params` mapping each (dotted) name to a message. Missing wins when both occur,
 * as in WordPress, which checks presence before validity. Names are echoed cut and capped (echo-limits.ts): a
 * client-chosen key of megabytes must not come back, twice, in the answer.
 */
export function validatePart<S extends AnySchema>(schema: S, input: unknown, prefix = ''): v.InferOutput<S> {
  // valibot's object schemas accept arrays (typeof 'object'); a JSON array is never a valid object body.
  if (Array.isArray(input) && /object/.test(String((schema as { type?: unknown }).type))) {
    throw new AppError('rest_invalid_param', 400, `Invalid parameter(s): ${prefix || 'body'}`, {
      params: { [prefix || 'body']: 'must be a JSON object' },
    });
  }
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;

  const missing: string[] = [];
  const invalid = new Map<string, string>();
  for (const issue of result.issues) {
    const path = issuePath(issue, prefix);
    if (issue.kind === 'schema' && issue.input === undefined && !isUnknownKey(issue)) {
      if (!missing.includes(path)) missing.push(path);
    } else if (!invalid.has(path)) {
      invalid.set(path, isUnknownKey(issue) ? 'is not a known field' : describe(issue));
    }
  }
  if (missing.length > 0) {
    throw new AppError('rest_missing_callback_param', 400, `Missing parameter(s): ${listNames(missing)}`, {
      params: missing.slice(0, MAX_ECHOED_NAMES).map((name) => clip(name)),
    });
  }
  const names = [...invalid.keys()];
  throw new AppError('rest_invalid_param', 400, `Invalid parameter(s): ${listNames(names)}`, {
    params: Object.fromEntries(
      names.slice(0, MAX_ECHOED_NAMES).map((name) => [clip(name), invalid.get(name) ?? 'is invalid']),
    ),
  });
}

function isUnknownKey(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === 'strict_object' && issue.expected === 'never';
}

function issuePath(issue: v.BaseIssue<unknown>, prefix: string): string {
  const dotted = v.getDotPath(issue);
  if (dotted) return dotted;
  return prefix || 'body';
}

function describe(issue: v.BaseIssue<unknown>): string {
  // Messages given in contracts ("must be a positive integer") are already reader-facing.
  if (!issue.message.startsWith('Invalid ')) return issue.message;
  return `must be ${issue.expected ?? 'valid'}`;
}
