import { createHash } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

type HttpResult = APIGatewayProxyStructuredResultV2;

/**
 * Conditional reads (issue 24): every successful GET carries a strong `ETag`, the SHA-256 of the exact body the
 * caller receives. A tag therefore never outlives a change the caller can see, and two callers who are shown
 * different bodies (owner fields, privacy, their own read flags) never share one. `If-None-Match` naming the
 * current tag answers 304 with no body: the client keeps what it holds. The body is still built (the tag is of
 * the body), so a 304 saves the transfer, not the reads.
 */
export function withEntityTag(result: HttpResult, ifNoneMatch: string | undefined): HttpResult {
  if (result.statusCode !== 200 || typeof result.body !== 'string' || result.isBase64Encoded) return result;
  const tag = entityTagOf(result.body);
  const headers = { ...result.headers, etag: tag };
  if (ifNoneMatch === undefined || !matchesAny(ifNoneMatch, tag)) return { ...result, headers };
  // RFC 9110 §15.4.5: a 304 repeats the validator and caching headers of the 200 it stands for, and has no body.
  const { 'content-type': _contentType, ...notModified } = headers as Record<
    string,
    string | number | boolean
  >;
  return { statusCode: 304, headers: notModified, body: '' };
}

/** The strong validator of a body: its SHA-256, base64url, quoted. */
export const entityTagOf = (body: string): string =>
  `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; `*` matches any current
 * representation; a list matches when one member does.
 */
function matchesAny(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === tag);
}
