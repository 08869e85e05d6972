import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { notFound } from '../../errors/app-error.ts';
import { GuardedFetchError, guardedFetch } from '../../integrations/guarded-fetch.ts';
import { cacheOembed, findCachedOembed, type OembedRecord } from './oembed-cache-repository.ts';
import { allowedHosts, findProvider } from './oembed-providers.ts';
import { sanitizeOembed } from './sanitize-oembed.ts';

/** decisions.md "Media": 5 s and 300 KB caps. */
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 300 * 1024;
const MAX_REDIRECTS = 3;
/** A popular URL is fetched once a day at most. */
const CACHE_SECONDS = 24 * 60 * 60;

const oembedNotFound = () => notFound('oembed_not_found', 'No embed could be found for this URL.');

const text = v.optional(v.nullable(v.string(), null), null);
const size = v.optional(
  v.nullable(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))]), null),
  null,
);
/** What a provider answers; the fields the contract names, any other kept out. */
const ProviderAnswerSchema = v.object({
  type: v.picklist(['photo', 'video', 'link', 'rich']),
  provider_name: text,
  provider_url: text,
  title: text,
  author_name: text,
  thumbnail_url: text,
  html: text,
  width: size,
  height: size,
});

/**
 * `GET /feeds/oembed`: the record of a URL from a known provider, cached in the table. Every refusal (unknown
 * provider, scheme, refused address, timeout, oversized or malformed answer) is the same 404, so the endpoint
 * tells an attacker nothing about what lies behind an address. URL fields and `html` are sanitized
 * (sanitize-oembed.ts).
 */
export async function fetchOembed(rawUrl: string): Promise<{ data: OembedRecord }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw oembedNotFound();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw oembedNotFound();
  const normal = url.href;
  const digest = createHash('sha256').update(normal).digest('hex');
  const nowEpoch = Math.floor(Date.now() / 1000);
  const cached = await findCachedOembed(digest, nowEpoch);
  if (cached) return { data: sanitizeOembed(cached) };

  const provider = findProvider(normal);
  if (!provider) throw oembedNotFound();
  const endpoint = new URL(provider.endpoint);
  endpoint.searchParams.set('url', normal);
  endpoint.searchParams.set('format', 'json');

  let answer: v.InferOutput<typeof ProviderAnswerSchema>;
  try {
    const response = await guardedFetch(endpoint.href, {
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      maxRedirects: MAX_REDIRECTS,
      allowHosts: allowedHosts(),
    });
    if (response.status !== 200) throw oembedNotFound();
    answer = v.parse(ProviderAnswerSchema, JSON.parse(response.body));
  } catch (error) {
    if (error instanceof GuardedFetchError || error instanceof SyntaxError || error instanceof v.ValiError) {
      throw oembedNotFound();
    }
    throw error;
  }
  // Cached clean (sanitize-oembed.ts): what the table holds is what any caller may be answered.
  const record: OembedRecord = sanitizeOembed({
    ...answer,
    provider_name: answer.provider_name ?? provider.providerName,
    provider_url: answer.provider_url ?? (provider.providerUrl || null),
  });
  await cacheOembed(digest, record, nowEpoch + CACHE_SECONDS);
  return { data: record };
}
