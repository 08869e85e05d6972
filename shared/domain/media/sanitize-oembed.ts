import sanitizeHtml from 'sanitize-html';
import type { OembedRecord } from './oembed-cache-repository.ts';

/**
 * What a provider's oEmbed record may carry into a client's page (issue 21, item 9). A provider is a third party:
 * its `html` is embedded by clients as is, and its URLs become links and image sources, so:
 *
 * - `provider_url` and `thumbnail_url` are kept only when they are absolute `http:`/`https:` URLs (no
 *   `javascript:`, `data:`, relative or malformed ones), else `null`;
 * - `html` goes through `sanitize-html` with an allow-list: the markup embeds are made of (iframe, blockquote, links,
 *   images, basic text), no scripts, styles, forms or event handlers; an iframe survives only with an `https:`
 *   `src`, a link or image only with an `http:`/`https:` one; what is left empty becomes `null`.
 *
 * Applied before caching and again to a cached record, so a record cached before this rule is answered clean too.
 */
const WEB_SCHEMES = ['http', 'https'];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['iframe', 'blockquote', 'p', 'a', 'img', 'br', 'div', 'span', 'em', 'strong', 'cite'],
  allowedAttributes: {
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'frameborder', 'loading'],
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
    blockquote: ['cite'],
  },
  allowedSchemes: WEB_SCHEMES,
  allowedSchemesByTag: { iframe: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An iframe without an absolute `https:` source, or an image without an absolute `http(s):` one (relative URLs
  // would resolve against the client's own site), is dropped whole rather than kept pointing nowhere.
  exclusiveFilter: (frame) =>
    (frame.tag === 'iframe' && !/^https:\/\//i.test(frame.attribs.src ?? '')) ||
    (frame.tag === 'img' && !/^https?:\/\//i.test(frame.attribs.src ?? '')),
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow ugc noopener', target: '_blank' }),
  },
};
// `rel` and `target` come from the transform above, not from the provider.
(OPTIONS.allowedAttributes as Record<string, string[]>).a?.push('rel', 'target');

/** The URL when it is an absolute `http:`/`https:` URL, else `null`. */
export function webUrlOrNull(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function sanitizeEmbedHtml(html: string | null): string | null {
  if (html === null) return null;
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return clean === '' ? null : clean;
}

export const sanitizeOembed = (record: OembedRecord): OembedRecord => ({
  ...record,
  provider_url: webUrlOrNull(record.provider_url),
  thumbnail_url: webUrlOrNull(record.thumbnail_url),
  html: sanitizeEmbedHtml(record.html),
});
