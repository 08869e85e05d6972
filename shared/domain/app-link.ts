import { env } from '../config/env.ts';

/**
 * The address of a client app's page, for links people click in e-mails (digest, notification e-mails): a
 * notification's `action_url` (`/u/bob`, `/feeds/2?comment_id=1`) put into `APP_LINK_TEMPLATE` in place of
 * `{path}`. Without a template, the API's own origin (`PUBLIC_BASE_URL` without `/v2`), where the local stack
 * serves a page for each such path (infra/local/app-pages.ts). A path that is already absolute is kept.
 */
export const APP_PATH_PLACEHOLDER = '{path}';

export function appLink(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  const template = env().APP_LINK_TEMPLATE;
  if (template !== '') return template.replace(APP_PATH_PLACEHOLDER, path);
  return `${env()
    .PUBLIC_BASE_URL.replace(/\/v2\/?$/, '')
    .replace(/\/+$/, '')}${path}`;
}
