import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.ts';

/**
 * GET of a URL someone else chose (oEmbed endpoints), safe against server-side request forgery:
 * - only `http:` and `https:`;
 * - the address actually connected to is checked: an IP literal before connecting, a name inside the socket's own
 *   DNS lookup (so the answer checked is the answer used: no second resolution an attacker's DNS could change);
 * - redirects are followed by hand, each one checked the same way;
 * - one deadline for the whole chain and a byte cap on the body.
 * `allowHosts` (`host:port`) exempts named endpoints from the address check (local tests only).
 */
export interface GuardedFetchOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly allowHosts?: ReadonlySet<string>;
}

export interface FetchedText {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Why a fetch was refused or failed; callers answer all of them the same way. */
export class GuardedFetchError extends Error {
  override readonly name = 'GuardedFetchError';
}

const hostPort = (url: URL): string =>
  `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

/** A DNS lookup that refuses every answer set containing a non-public address, before any connection. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
      return callback(new GuardedFetchError(`${hostname} resolves to a refused address`), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
};

export async function guardedFetch(start: string, options: GuardedFetchOptions): Promise<FetchedText> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GuardedFetchError(`scheme ${url.protocol} is not allowed`);
    }
    if (url.username || url.password) throw new GuardedFetchError('credentials in URLs are not allowed');
    const allowed = options.allowHosts?.has(hostPort(url)) ?? false;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw new GuardedFetchError(`address ${host} is refused`);
    }
    const response = await requestOnce(url, allowed, deadline, options.maxBytes);
    if (response.location === undefined) return response;
    if (hop >= options.maxRedirects) throw new GuardedFetchError('too many redirects');
    url = new URL(response.location, url);
  }
}

function requestOnce(
  url: URL,
  allowed: boolean,
  signal: AbortSignal,
  maxBytes: number,
): Promise<FetchedText & { location?: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // Every failure reaches callers as a GuardedFetchError (a promise settles once; later calls are no-ops).
    const fail = (error: Error) =>
      reject(error instanceof GuardedFetchError ? error : new GuardedFetchError(error.message));
    const request = client.request(
      url,
      {
        method: 'GET',
        signal,
        ...(allowed ? {} : { lookup: checkedLookup }),
        headers: { accept: 'application/json', 'user-agent': 'community-api-oembed/1' },
        // No connection reuse: every request goes through the checked lookup.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ status, contentType: '', body: '', location });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            request.destroy(new GuardedFetchError(`body larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status,
            contentType: response.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        // A body that breaks off (connection reset, peer closed mid-body) is a failed fetch like any other, never
        // an unexpected error (issue 21, item 3): the response stream's error and a close before the end both
        // land here.
        response.on('error', fail);
        response.on('close', () => {
          if (!response.complete) fail(new GuardedFetchError('the connection closed before the body ended'));
        });
      },
    );
    request.on('error', fail);
    request.end();
  });
}
