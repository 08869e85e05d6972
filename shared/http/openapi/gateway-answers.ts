import type { JsonObject } from './schema.ts';

/**
 * What the gateway in front of the handlers answers by itself, documented apart from the operations' own errors:
 * its bodies are `{ "message" }` without a `code`, so mixing them into each operation's error responses would make
 * a generated client's `error.code` unreadable without narrowing. Each operation lists these statuses (with
 * `Retry-After` on 429) and points here; the bodies are `components.responses.Gateway*`, listed at the top level
 * under `x-gateway-responses`.
 */
const GATEWAY_ERROR_REF = { $ref: '#/components/schemas/GatewayError' };

export const GATEWAY_ERROR_SCHEMA: JsonObject = {
  type: 'object',
  description:
    'An answer of the gateway in front of the handlers (413, 429, 500, 503): a message, no error code. Never ' +
    'returned by the API itself, whose errors always carry `code`.',
  properties: { message: { type: 'string' } },
  required: ['message'],
};

export const RETRY_AFTER_HEADER: JsonObject = {
  description: "Seconds to wait before trying again, when the answer says (the API's own 429 always does).",
  schema: { type: 'integer', minimum: 1 },
};

const ANSWERS = {
  '413': {
    name: 'GatewayRequestTooLarge',
    description: 'The request is over 10 MB, or over the 6 MB function payload once encoded.',
  },
  '429': {
    name: 'GatewayThrottled',
    description: "The stage's request rate or burst limit was exceeded; wait and try again.",
  },
  '500': { name: 'GatewayFunctionError', description: 'The function failed without answering (a crash).' },
  '503': { name: 'GatewayTimeout', description: 'The request took longer than 30 s.' },
} as const;

type Status = keyof typeof ANSWERS;

/** `components.responses` entries of the gateway's answers. */
export function gatewayResponseComponents(): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(ANSWERS).map(([status, answer]) => [
      answer.name,
      {
        description: `${answer.description} Answered by the gateway itself.`,
        headers: {
          'x-request-id': { $ref: '#/components/headers/XRequestId' },
          ...(status === '429' ? { 'retry-after': { $ref: '#/components/headers/RetryAfter' } } : {}),
        },
        content: { 'application/json': { schema: GATEWAY_ERROR_REF } },
      },
    ]),
  );
}

/** The top-level `x-gateway-responses`: status → the gateway's answer. */
export function gatewayResponseIndex(): JsonObject {
  return Object.fromEntries(
    Object.entries(ANSWERS).map(([status, answer]) => [
      status,
      { $ref: `#/components/responses/${answer.name}` },
    ]),
  );
}

/**
 * Adds the gateway's statuses to an operation's responses. A status the operation answers itself keeps only its
 * envelope and says the gateway may answer it too; any other gets a response without a body schema (the gateway's
 * body is documented apart). Every 429 documents `Retry-After`.
 */
export function withGatewayStatuses(responses: JsonObject): JsonObject {
  const result: JsonObject = { ...responses };
  for (const status of Object.keys(ANSWERS) as Status[]) {
    const answer = ANSWERS[status];
    const note = `The gateway may also answer ${status} itself (${answer.description.toLowerCase()}), with a \`GatewayError\` body (\`x-gateway-responses\`, \`components.responses.${answer.name}\`).`;
    const ours = responses[status] as JsonObject | undefined;
    const retryAfter = status === '429' ? { 'retry-after': { $ref: '#/components/headers/RetryAfter' } } : {};
    result[status] = ours
      ? {
          ...ours,
          description: `${ours.description}\n\n${note}`,
          headers: { ...(ours.headers as JsonObject), ...retryAfter },
        }
      : {
          description: `${answer.description} ${note}`,
          headers: { 'x-request-id': { $ref: '#/components/headers/XRequestId' }, ...retryAfter },
        };
  }
  return Object.fromEntries(Object.entries(result).sort(([a], [b]) => a.localeCompare(b)));
}
