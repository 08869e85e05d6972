import { env } from '../../config/env.ts';
import { readSecret } from '../../config/secrets.ts';
import { mysqlSource } from './mysql-source.ts';
import type { BuddypressSource } from './source.ts';

/** The pool of the secret last read; a promise, so concurrent first calls share one pool. */
let opened: { secret: string; source: Promise<BuddypressSource | undefined> } | undefined;

const closeSource = (source: Promise<BuddypressSource | undefined> | undefined) =>
  source?.then((open) => open?.close()).catch(() => undefined);

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
  const previous = opened?.source;
  const source = secret.startsWith('{') ? fromJson(secret) : fromUrl(secret);
  opened = { secret, source };
  await closeSource(previous);
  return source;
}

async function fromUrl(url: string): Promise<BuddypressSource | undefined> {
  if (!/^mysql:\/\//.test(url)) return undefined;
  return mysqlSource({ uri: url, tablePrefix: env().BUDDYPRESS_TABLE_PREFIX });
}

async function fromJson(text: string): Promise<BuddypressSource | undefined> {
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
  const previous = opened?.source;
  opened = undefined;
  await closeSource(previous);
}
