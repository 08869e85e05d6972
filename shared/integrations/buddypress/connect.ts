import { env } from '../../config/env.ts';
import { readSecret } from '../../config/secrets.ts';
import { mysqlSource } from './mysql-source.ts';
import type { BuddypressSource } from './source.ts';

let opened: { secret: string; source: BuddypressSource } | undefined;

/**
 * The configured BuddyPress source, or undefined when none is configured. Locally and in tests the secret's value
 * is `BUDDYPRESS_URL` (`mysql://user@host:3306/wordpress`) with the prefix in `BUDDYPRESS_TABLE_PREFIX` (default
 * `wp_`); in the cloud it is the Secrets Manager secret's JSON (`host`, `port`, `user`, `password`, `database`,
 * `tablePrefix`), left with an empty host until operators fill it in. One pool per warm process.
 */
export async function openBuddypressSource(): Promise<BuddypressSource | undefined> {
  let secret: string;
  try {
    secret = (await readSecret('buddypressSource')).trim();
  } catch {
    return undefined;
  }
  if (!secret) return undefined;
  if (opened?.secret === secret) return opened.source;
  const source = secret.startsWith('{') ? fromJson(secret) : fromUrl(secret);
  if (!source) return undefined;
  await opened?.source.close().catch(() => undefined);
  opened = { secret, source };
  return source;
}

function fromUrl(url: string): BuddypressSource | undefined {
  if (!/^mysql:\/\//.test(url)) return undefined;
  return mysqlSource({ uri: url, tablePrefix: env().BUDDYPRESS_TABLE_PREFIX });
}

function fromJson(text: string): BuddypressSource | undefined {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (typeof parsed.host !== 'string' || parsed.host === '') return undefined;
  return mysqlSource({
    host: parsed.host,
    port: Number(parsed.port ?? 3306),
    user: String(parsed.user ?? ''),
    password: String(parsed.password ?? ''),
    database: String(parsed.database ?? ''),
    tablePrefix: String(parsed.tablePrefix ?? 'wp_'),
  });
}

/** Closes the pool (tests, CLI) so the process can exit. */
export async function closeBuddypressSource(): Promise<void> {
  await opened?.source.close().catch(() => undefined);
  opened = undefined;
}
