/**
 * The rules of `Idempotency-Key` that both the factory (idempotency.ts) and the OpenAPI document state, in a leaf
 * module so the document's function does not bundle the replay store.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key is remembered: a retry within this answers the first response. */
export const IDEMPOTENCY_KEY_LIFETIME_SECONDS = 24 * 60 * 60;
/** Suggested wait before repeating a request whose first attempt is still running. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/** 1–255 visible ASCII characters (0x21–0x7E): no spaces, no control characters, nothing outside ASCII. */
export const VALID_IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;
