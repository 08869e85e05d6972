import type { JsonObject } from './schema.ts';

/**
 * What the gateway in front of the handlers answers by itself (413, 429, 500, 503), documented apart from the
 * operations' own errors: one `GatewayError` body (`{ "message" }`, and declaring no `code`), one response
 * component per status (`components.responses.Gateway*`, indexed at the top level under `x-gateway-responses`),
 * which every operation refers to. Because the body says it has no `code`, a generated client reads `error.code`
 * on every operation (the API's codes, or undefined for the gateway's answers) without narrowing first.
 */
const GATEWAY_ERROR_REF = { $ref: '#/components/schemas/GatewayError' };

export const GATEWAY_ERROR_SCHEMA: JsonObject = {
  type: 'object',
  description:
    'An answer of the gateway in front of the handlers (413, 429, 500, 503): a message, no error code. Never ' +
    'returned by the API itself, whose errors always carry `code`.',
  // `code` is declared (optional, unconstrained) though the gateway never sends one: generated clients can then read
  // `error.code` on every operation without first telling the gateway's body from the API's. (A `null` or `false`
  // schema would be the exact statement, but openapi-fetch's `Readable` drops such keys, and `code` with them.)
  properties: {
    message: { type: 'string' },
    code: { description: "Never sent: the gateway's answers carry no code (the API's always do)." },
  },
  required: ['message'],
};

export const RETRY_AFTER_HEADER: JsonObject = {
  description:
    "Seconds to wait before trying again. The API's own 429, 503 and 409 `request_in_progress` always carry it; the gateway's own answers may not.",
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

/**
 * Every operation answers 500 itself (`internal_error`), so the gateway's 500 is only ever the second body of that
 * status and needs no response component of its own (an unused one would be a lint warning).
 */
const WITH_COMPONENT = (status: string) => status !== '500';

/** `components.responses` entries of the gateway's answers. */
export function gatewayResponseComponents(): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(ANSWERS)
      .filter(([status]) => WITH_COMPONENT(status))
      .map(([status, answer]) => [
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
      WITH_COMPONENT(status)
        ? { $ref: `#/components/responses/${answer.name}` }
        : { description: `${answer.description} Answered by the gateway itself.`, schema: GATEWAY_ERROR_REF },
    ]),
  );
}

/**
 * Adds the gateway's statuses to an operation's responses. A status only the gateway answers refers to its
 * `components.responses.Gateway*`; a status the operation also answers itself takes either body (its envelope, or
 * the gateway's). Every 429 documents `Retry-After`. The gateway's body declares that its `code` is never set, so a
 * generated client reads `error.code` on every operation without first telling the bodies apart.
 */
export function withGatewayStatuses(responses: JsonObject): JsonObject {
  const result: JsonObject = { ...responses };
  for (const status of Object.keys(ANSWERS) as Status[]) {
    const answer = ANSWERS[status];
    const ours = responses[status] as JsonObject | undefined;
    if (!ours) {
      if (WITH_COMPONENT(status)) result[status] = { $ref: `#/components/responses/${answer.name}` };
      continue;
    }
    const content = ours.content as { 'application/json': { schema: JsonObject } };
    result[status] = {
      ...ours,
      description: `${ours.description}\n\nOr, from the gateway itself (\`${answer.name}\`, no \`code\`): ${answer.description}`,
      headers: {
        ...(ours.headers as JsonObject),
        ...(status === '429' ? { 'retry-after': { $ref: '#/components/headers/RetryAfter' } } : {}),
      },
      content: {
        'application/json': { schema: { anyOf: [content['application/json'].schema, GATEWAY_ERROR_REF] } },
      },
    };
  }
  return Object.fromEntries(Object.entries(result).sort(([a], [b]) => a.localeCompare(b)));
}
