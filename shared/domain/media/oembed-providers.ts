import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import providerList from 'oembed-providers/providers.json' with { type: 'json' };
import { env } from '../../config/env.ts';

/**
 * oEmbed providers from the maintained oembed.com list (the `oembed-providers` package), never a hand-written one.
 * The local stack may add providers from a file in the same format (`OEMBED_PROVIDERS_EXTRA`), so tests can serve a
 * known provider from a local fake; outside the local stage the variable is ignored.
 */
const ProvidersSchema = v.array(
  v.looseObject({
    provider_name: v.string(),
    provider_url: v.optional(v.string(), ''),
    endpoints: v.array(v.looseObject({ schemes: v.optional(v.array(v.string()), []), url: v.string() })),
  }),
);

export interface ProviderEndpoint {
  readonly providerName: string;
  readonly providerUrl: string;
  /** The endpoint URL with `{format}` filled in. */
  readonly endpoint: string;
  readonly patterns: readonly RegExp[];
}

const escapeRegex = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
/** `https://*.example.com/video/*` → a whole-URL pattern where `*` stands for any run of characters. */
const schemePattern = (scheme: string) =>
  new RegExp(`^${scheme.split('*').map(escapeRegex).join('.*')}$`, 'i');

function endpointsOf(raw: unknown): ProviderEndpoint[] {
  const providers = v.parse(ProvidersSchema, raw);
  return providers.flatMap((provider) =>
    provider.endpoints
      .filter((endpoint) => endpoint.schemes.length > 0)
      .map((endpoint) => ({
        providerName: provider.provider_name,
        providerUrl: provider.provider_url,
        endpoint: endpoint.url.replace('{format}', 'json'),
        patterns: endpoint.schemes.map(schemePattern),
      })),
  );
}

let loaded: ProviderEndpoint[] | undefined;

function providers(): ProviderEndpoint[] {
  if (!loaded) {
    const { STAGE, OEMBED_PROVIDERS_EXTRA } = env();
    const extra =
      STAGE === 'local' && OEMBED_PROVIDERS_EXTRA
        ? endpointsOf(JSON.parse(readFileSync(OEMBED_PROVIDERS_EXTRA, 'utf8')))
        : [];
    // Extra providers first: a local fake may stand in for a listed provider.
    loaded = [...extra, ...endpointsOf(providerList)];
  }
  return loaded;
}

/** The endpoint serving `url`, if a known provider's scheme matches it. */
export const findProvider = (url: string): ProviderEndpoint | undefined =>
  providers().find((provider) => provider.patterns.some((pattern) => pattern.test(url)));

/** `host:port` pairs exempt from the address check: local stage only. */
export function allowedHosts(): ReadonlySet<string> {
  const { STAGE, OEMBED_ALLOW_HOSTS } = env();
  if (STAGE !== 'local' || !OEMBED_ALLOW_HOSTS) return new Set();
  return new Set(
    OEMBED_ALLOW_HOSTS.split(',')
      .map((pair) =>
        pair
          .trim()
          .toLowerCase()
          .replace(/^\[|\](?=:)/g, ''),
      )
      .filter(Boolean),
  );
}
