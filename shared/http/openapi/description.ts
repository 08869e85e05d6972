import type { AccessLevel } from '../../catalogue/index.ts';

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
- Credentials that cannot be checked at the moment (a store is unreachable): 503 \`service_unavailable\`; nothing was done, try again.
- A caller without the permission an operation needs: 403 \`rest_forbidden\` (\`permission_failed\` for the privacy-gated profile space list). \`x-access-level\` on each operation names the level it requires.

## Errors
- Error body of most operations: \`{ "code": string, "message": string, "data": { "status": integer, … } }\`. Quiz and migration operations answer \`{ "code", "message" }\` only (a failed migration adds \`details\`).
- Each error response lists its codes in \`x-error-codes\` and in its description.
- Validation: a missing required parameter is 400 \`rest_missing_callback_param\` with \`data.params\` listing the names; a present but invalid one is 400 \`rest_invalid_param\` with \`data.params\` mapping each name (dotted for nested fields) to a message. Names echoed in \`data.params\` and in the message are cut to 100 characters and lists to 20 names, so an error body stays small. A body that is not valid JSON: 400 \`rest_invalid_json\`. A JSON body sent with another \`Content-Type\` than \`application/json\`: 415 \`rest_unsupported_media_type\`. Unknown query parameters are ignored; unknown body fields are rejected with \`rest_invalid_param\`.
- An unknown path, or a known path with a method it does not serve: 404 \`rest_no_route\`.
- Unknown ids in paths answer the resource's own 404 code (\`not_found\`, \`media_not_found\`, \`notification_not_found\`, \`user_not_found\`, \`quiz_not_found\`).
- An unexpected failure: 500 \`internal_error\` (never with details).
- Limits enforced in front of the handlers: a request over 10 MB, or over the 6 MB function payload once encoded, is 413; a request that takes longer than 30 s is 503. These answers carry \`{ "message" }\` only (\`GatewayError\`).

## Pagination
- \`page\` ≥ 1 and \`per_page\` 1..100 everywhere (each operation states its default); outside these bounds: 400 \`rest_invalid_param\`. A page past the end is 200 with an empty \`data\`.
- Integer and boolean parameters are documented as integers and booleans; on the wire they are decimal digits and \`true\`/\`false\` (\`1\`/\`0\` are accepted too).
- Paginator B's \`next_page_url\` carries an opaque \`cursor\` parameter besides \`page\`: a client that follows it pays for one page, not for the offset. A cursor is honoured only by the list, filters and \`per_page\` it was issued for (otherwise \`page\` alone applies); one this service did not issue is 400 \`rest_invalid_param\`. Without a cursor, a jump far beyond the end of a list whose size is not known may be refused with 400 \`rest_invalid_param\` naming \`page\`. Missing page links are \`null\`.
- Absolute links (page URLs) are built from the stage's configured public URL, never from request headers.

## Dates
- Stored and rendered in UTC. Topics, quizzes and migrations use \`YYYY-MM-DD HH:MM:SS\`; profiles, media and notifications use ISO 8601 \`YYYY-MM-DDTHH:MM:SS\`.
- A summary has one format wherever it appears: a member (\`xprofile\`: \`created_at\`, \`updated_at\`, \`last_activity\`) and a space (\`created_at\`, \`updated_at\`) are ISO 8601 in every response, also inside responses whose own timestamps are \`YYYY-MM-DD HH:MM:SS\` (quiz results, invitations); the host user summary's \`user_registered\` is \`YYYY-MM-DD HH:MM:SS\` everywhere. Feeds, comments and media are ISO 8601; invitations and a course's administrative form \`YYYY-MM-DD HH:MM:SS\`.

## Status codes
- An operation that creates a resource answers 201; every other success answers 200.

## Headers and web clients
- Every response carries \`x-request-id\`, \`content-type: application/json; charset=utf-8\` and \`x-content-type-options: nosniff\`; authenticated responses also carry \`cache-control: private, no-cache\` (a client may keep them and must revalidate; no shared cache stores them). The 503 \`service_unavailable\` says \`cache-control: no-store\`.
- **Conditional reads**: every successful GET carries a strong \`ETag\` (a hash of the exact body the caller receives, so two callers who see different bodies never share a tag). Send it back in \`If-None-Match\`: while the body is unchanged the answer is 304 with no body and the same \`ETag\`; after a change the caller can see, 200 with a new tag.
- **Retry-safe writes**: every POST, PUT and DELETE takes an optional \`Idempotency-Key\` header (1–255 visible ASCII characters, else 400 \`rest_invalid_param\` naming \`Idempotency-Key\`), scoped to the caller and kept 24 hours. A repeat with the same key, method, path and body answers the first response (status, body and headers) again without running, with \`Idempotent-Replayed: true\`; the same key with another method, path or body is 422 \`idempotency_key_reused\`; a repeat while the first is still running is 409 \`request_in_progress\` with \`Retry-After\`. A first answer of 5xx or 429 is not kept, so a retry runs. Keys of different callers never collide.
- \`Retry-After\` (seconds) comes with every 429 and 503 the API answers, and with 409 \`request_in_progress\`.
- CORS: preflight requests are answered (204) for the origins configured per stage (locally: any origin); \`Idempotency-Key\` and \`If-None-Match\` are allowed request headers; \`x-request-id\`, \`ETag\`, \`Idempotent-Replayed\` and \`Retry-After\` are exposed to scripts.

## Text
- \`message\` fields are Markdown; \`*_rendered\` fields are sanitized HTML.
`;

/** What each access level of the catalogue requires, in words (appended to every operation's description). */
export const ACCESS_DESCRIPTIONS = {
  public: 'Public: no credentials needed.',
  authenticated: 'Any signed-in, active member.',
  owner: "Any signed-in, active member, acting on the member's own records only.",
  administrator: 'Host administrators only.',
  community_admin: 'Community administrators (and host administrators).',
  course_admin: 'Course administrators of the course, and community administrators.',
  space_moderator: 'Moderators and administrators of the space, and community moderators.',
  space_add_member: 'Whoever may add members to the space: its administrators and community administrators.',
  enrolled_student: 'Students enrolled in the course, and its administrators.',
  privacy_gated: "Depends on the site's privacy settings (see the operation).",
} as const satisfies Record<AccessLevel, string>;

/** Tag descriptions; a tag without one gets a generated sentence. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Courses: 'Courses, lessons, enrolment and course administration.',
  Feeds: 'Posts in the activity feed, their comments and reactions.',
  Invitations: 'Invitations to spaces.',
  Media: 'Uploaded media: presigned uploads, completion, listing.',
  Members: 'Member search and member summaries.',
  Migrations: 'Migration from BuddyPress: start and status.',
  Notifications: "The caller's notifications and notification preferences.",
  Platform: 'The API itself: its OpenAPI document and the reference page that renders it.',
  Profiles: 'Member profiles and what they list.',
  Quizzes: 'Course quizzes: questions, submissions and results.',
  Settings: 'Site settings.',
  Spaces: 'Spaces and their members.',
  Topics: 'Topics that classify feed posts, and their configuration.',
};
