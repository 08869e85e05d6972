/**
 * The cross-cutting rules of the API (spec/decisions.md, "Cross-cutting"), stated once in `info.description` of
 * the generated document. Operation-specific rules live in each contract's `description`.
 */
export const API_DESCRIPTION = `HTTP API of the community platform (version \`v2\`). Every path is relative to the server URL \`/v2\`.

## Authentication
- Every operation except the ones marked with an empty \`security\` list needs an \`Authorization\` header.
- **Basic**: \`base64(<username>:<application password>)\`. The application password is 24 letters and digits, shown once, grouped by four; it may be sent with or without the spaces.
- **Bearer**: an opaque token \`<id>.<secret>\`.
- No \`Authorization\` header: 401 \`rest_not_logged_in\`. Wrong user name or password, a revoked password or token, an unknown scheme or a malformed header: 401 \`invalid_credentials\`, one message for all of them, with \`WWW-Authenticate: Basic realm="community"\`.
- A caller whose profile status is \`suspended\` or \`banned\`: 403 \`rest_forbidden\` "Your account is not active."
- A caller without the permission an operation needs: 403 \`rest_forbidden\` (\`permission_failed\` for the privacy-gated profile space list). \`x-access-level\` on each operation names the level it requires.

## Errors
- Error body of most operations: \`{ "code": string, "message": string, "data": { "status": integer, … } }\`. Quiz and migration operations answer \`{ "code", "message" }\` only (a failed migration adds \`details\`).
- Each error response lists its codes in \`x-error-codes\` and in its description.
- Validation: a missing required parameter is 400 \`rest_missing_callback_param\` with \`data.params\` listing the names; a present but invalid one is 400 \`rest_invalid_param\` with \`data.params\` mapping each name (dotted for nested fields) to a message. A body that is not valid JSON: 400 \`rest_invalid_json\`. Unknown query parameters are ignored; unknown body fields are rejected with \`rest_invalid_param\`.
- An unknown path, or a known path with a method it does not serve: 404 \`rest_no_route\`.
- Unknown ids in paths answer the resource's own 404 code (\`not_found\`, \`media_not_found\`, \`notification_not_found\`, \`user_not_found\`, \`quiz_not_found\`).
- An unexpected failure: 500 \`internal_error\` (never with details).
- Limits enforced in front of the handlers: a request over 10 MB, or over the 6 MB function payload once encoded, is 413; a request that takes longer than 30 s is 503. These answers carry \`{ "message" }\` only.

## Pagination
- \`page\` ≥ 1 and \`per_page\` 1..100 everywhere (each operation states its default); outside these bounds: 400 \`rest_invalid_param\`. A page past the end is 200 with an empty \`data\`.
- Query values are strings on the wire: integers as decimal digits, booleans as \`true\`/\`false\` (or \`1\`/\`0\`).
- Paginator B's \`next_page_url\` carries an opaque \`cursor\` parameter besides \`page\`: a client that follows it pays for one page, not for the offset. Missing page links are \`null\`.

## Dates
- Stored and rendered in UTC. Topics, quizzes and migrations use \`YYYY-MM-DD HH:MM:SS\`; profiles, media and notifications use ISO 8601 \`YYYY-MM-DDTHH:MM:SS\`.

## Status codes
- An operation that creates a resource answers 201; every other success answers 200.

## Headers and web clients
- Every response carries \`x-request-id\`, \`content-type: application/json; charset=utf-8\` and \`x-content-type-options: nosniff\`; authenticated responses also carry \`cache-control: no-store\`.
- CORS: preflight requests are answered (204) for the origins configured per stage (locally: any origin); \`x-request-id\` is exposed to scripts.

## Text
- \`message\` fields are Markdown; \`*_rendered\` fields are sanitized HTML.
`;
