import * as v from 'valibot';
import { expect } from 'vitest';
import { bareErrorBodySchema, errorBodySchema } from '../../../shared/contracts/envelopes.ts';
import type { ApiResponse } from '../api.ts';

/**
 * The fuzz tests' one judgement of an answer: below 500, with a request id; an error is JSON in the operation's
 * envelope (standard or bare, as its OpenAPI error responses say), its `data.status` is the HTTP status, and its
 * code is one the served document lists for that status (`x-error-codes`).
 */
// biome-ignore lint/suspicious/noExplicitAny: walking the served document.
export type Json = Record<string, any>;

export interface AnswerContext {
  /** The operation as the served document describes it. */
  readonly operation: Json;
  /** Error codes also accepted at a status, with the reason (e.g. the catch-all's 404 for a path left behind). */
  readonly alsoAccepted?: Readonly<Record<number, readonly string[]>>;
  /** What was sent, for the failure message. */
  readonly request: string;
}

export function expectContractAnswer(response: ApiResponse<Json>, context: AnswerContext): void {
  const where = `${context.request} → ${response.status} ${response.text.slice(0, 400)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers.get('x-request-id'), where).toMatch(/\S/);
  if (response.status < 400) return;
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json\b/);
  const documented = context.operation.responses?.[String(response.status)];
  const codes: string[] = [
    ...(documented?.['x-error-codes'] ?? []),
    ...(context.alsoAccepted?.[response.status] ?? []),
  ];
  if (response.status === 413 && !response.body?.code) {
    // The gateway's own answer to an oversized request: a message, no code (documented as GatewayError).
    expect(documented, where).toBeDefined();
    expect(response.body?.message, where).toBeTypeOf('string');
    return;
  }
  const bare = JSON.stringify(documented?.content ?? {}).includes('BareError');
  const envelope = bare ? bareErrorBodySchema : errorBodySchema;
  expect(v.is(envelope, response.body), `${where}\n(not the ${bare ? 'bare' : 'standard'} envelope)`).toBe(
    true,
  );
  if (!bare) expect(response.body.data.status, where).toBe(response.status);
  expect(codes, where).toContain(response.body.code);
}
