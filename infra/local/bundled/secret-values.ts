/**
 * The values the AWS front answers `GetSecretValue` with, by catalogue secret name, from the local stack's own
 * environment: the same pepper and cursor key the tests and CLI use, and the BuddyPress source in the JSON shape
 * the cloud secret has (`host`, `port`, `user`, `password`, `database`, `tablePrefix`, `uploadsUrl`).
 */
export function secretValues(environment: Readonly<Record<string, string>>): Record<string, string> {
  return {
    passwordPepper: environment.PASSWORD_PEPPER ?? '',
    cursorKey: environment.CURSOR_KEY ?? '',
    buddypressSource: buddypressSecret(environment),
    // `dev` has no CDN signing key, so nothing reads it (presigned S3 GETs instead); the secret still exists.
    mediaSigningKey: environment.MEDIA_SIGNING_KEY ?? '',
  };
}

function buddypressSecret(environment: Readonly<Record<string, string>>): string {
  const url = environment.BUDDYPRESS_URL ?? '';
  const uploadsUrl = environment.BUDDYPRESS_UPLOADS_URL ?? '';
  if (!url.startsWith('mysql://'))
    return JSON.stringify({ host: '', port: 3306, user: '', database: '', password: '' });
  const parsed = new URL(url);
  return JSON.stringify({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.replace(/^\//, ''),
    tablePrefix: environment.BUDDYPRESS_TABLE_PREFIX ?? 'wp_',
    ...(uploadsUrl ? { uploadsUrl } : {}),
  });
}
