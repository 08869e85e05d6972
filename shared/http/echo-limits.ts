/**
 * Bounds on what an error body echoes back of a request. A client controls the names it sends (an unknown body key
 * can be megabytes long, a body can hold thousands of keys), and an error body that repeats them could exceed the
 * 6 MB a Lambda may answer (the gateway then replaces it with a bare 500). So names are cut, lists are capped, and
 * no rendered error body exceeds {@link MAX_ERROR_BODY_BYTES}.
 */

/** Characters of a name echoed in `data.params` or a message; longer names end with an ellipsis. */
export const MAX_ECHOED_NAME_CHARS = 100;
/** Names listed in one error; the message says how many more there were. */
export const MAX_ECHOED_NAMES = 20;
/** Far above any error this service renders on its own; far below the 6 MB payload limit. */
export const MAX_ERROR_BODY_BYTES = 16 * 1024;

const ELLIPSIS = '…';

/** `text` cut to `max` characters plus an ellipsis (never splitting a surrogate pair). */
export function clip(text: string, max = MAX_ECHOED_NAME_CHARS): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}${ELLIPSIS}`;
}

/** The first names, cut, for a message: `a, b, c` or `a, b, c and 7 more`. */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_ECHOED_NAMES).map((name) => clip(name));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
