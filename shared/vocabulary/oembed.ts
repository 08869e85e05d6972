import * as v from 'valibot';

/**
 * An oEmbed record as this service keeps and answers it (contract "Media", `GET /feeds/oembed`): the provider's
 * fields it passes on, each null when the provider sent none. The contract's response and the stored cache entry
 * are both this object.
 */
export const OEMBED_RECORD_FIELDS = {
  type: v.string(),
  provider_name: v.nullable(v.string()),
  provider_url: v.nullable(v.string()),
  title: v.nullable(v.string()),
  author_name: v.nullable(v.string()),
  thumbnail_url: v.nullable(v.string()),
  html: v.nullable(v.string()),
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
} as const;
