import type { IncomingMessage, ServerResponse } from 'node:http';
import { previewInvitation } from '../../shared/domain/invitations/index.ts';
import { escapeHtml } from '../../shared/vocabulary/html-escape.ts';

/**
 * The pages behind the links people click, when no client app owns them (`APP_LINK_TEMPLATE` unset and the
 * invitation link left at its default, the API's accept route): the local stack answers each such link itself
 * with a small page that says what the link is and how to act on it through the API, so a link from the mail
 * inbox opens something useful instead of a 404.
 *
 * - `/u/{username}`, `/feeds/{id}[?comment_id=]`, `/spaces/{slug}`, `/courses/{c}/lessons/{l}[?comment_id=]`: the
 *   `action_url`s of notifications, which e-mails put after the API's origin (shared/domain/app-link.ts).
 * - `GET /v2/invitations/{token}/accept` from a browser (it accepts `text/html`): the invitation e-mail's link.
 *   Accepting is a POST by the invited account; API clients (no `text/html`) still get the API's own answer, as
 *   in the cloud. The page shows the space and the invited address of a pending invitation.
 *
 * Nothing here is part of the cloud API; the pages read nothing but the invitation a token opens.
 */
export interface AppPage {
  readonly status: number;
  readonly html: string;
}

export interface PageRequest {
  readonly method: string;
  readonly url: URL;
  /** The request's Accept header. */
  readonly accept: string | undefined;
}

/** A page's content: what it is, then the calls that act on it. */
interface PageContent {
  readonly title: string;
  readonly what: string;
  readonly calls: readonly { readonly say: string; readonly command: string }[];
}

/** Shell-quoted for the commands shown (a username or slug comes from the address bar). */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const CREDENTIALS = "-u 'LOGIN:APPLICATION PASSWORD'";
const CREDENTIALS_HINT =
  'Credentials: the administrator printed by the first npm start, or ' +
  '<code>npm run --silent admin -- user:create --login LOGIN --email EMAIL</code> (it prints an application password).';

/** Answers the request with its page and says true, or says false (the API answers it). */
export async function serveAppPage(
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
  apiUrl: string,
): Promise<boolean> {
  const found = await appPage(
    { method: request.method ?? 'GET', url, accept: request.headers.accept },
    apiUrl,
  );
  if (!found) return false;
  response.writeHead(found.status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  response.end(found.html);
  return true;
}

/** The page for a request, or undefined when the request is not one of these links (the API answers it). */
export async function appPage(request: PageRequest, apiUrl: string): Promise<AppPage | undefined> {
  if (request.method !== 'GET') return undefined;
  const path = request.url.pathname;
  const api = apiUrl.replace(/\/+$/, '');
  const commentId = request.url.searchParams.get('comment_id');

  // Each pattern's groups always take part in its match, so a match's groups are strings.
  const [, token] = /^\/v2\/invitations\/([^/]+)\/accept$/.exec(path) ?? [];
  if (token !== undefined) {
    if (!(request.accept ?? '').includes('text/html')) return undefined;
    return invitationPage(decodeURIComponent(token), api);
  }
  const [, username] = /^\/u\/([^/]+)$/.exec(path) ?? [];
  if (username !== undefined) return page(200, profilePage(decodeURIComponent(username), api));
  const [, feedId] = /^\/feeds\/(\d+)$/.exec(path) ?? [];
  if (feedId !== undefined) return page(200, feedPage(feedId, commentId, api));
  const [, slug] = /^\/spaces\/([^/]+)$/.exec(path) ?? [];
  if (slug !== undefined) return page(200, spacePage(decodeURIComponent(slug), api));
  const [, courseId, lessonId] = /^\/courses\/(\d+)\/lessons\/(\d+)$/.exec(path) ?? [];
  if (courseId !== undefined && lessonId !== undefined)
    return page(200, lessonPage(courseId, lessonId, commentId, api));
  return undefined;
}

function profilePage(username: string, api: string): PageContent {
  const user = encodeURIComponent(username);
  return {
    title: `Profile of @${username}`,
    what: 'The member page a client app shows for this link (a follower notification, a mention).',
    calls: [
      { say: 'Read the profile', command: `curl ${CREDENTIALS} ${quoted(`${api}/profile/${user}`)}` },
      { say: 'Follow', command: `curl -X POST ${CREDENTIALS} ${quoted(`${api}/profile/${user}/follow`)}` },
    ],
  };
}

function feedPage(feedId: string, commentId: string | null, api: string): PageContent {
  const comment = commentId && /^\d+$/.test(commentId) ? commentId : undefined;
  return {
    title: comment ? `Comment ${comment} on feed ${feedId}` : `Feed ${feedId}`,
    what: comment
      ? 'A comment on a feed (a reply, a mention, a reaction): a client app opens the feed at this comment.'
      : 'A feed post (a new comment, a reaction, a mention): a client app opens it here.',
    calls: [
      { say: 'Read the feed', command: `curl ${CREDENTIALS} ${api}/feeds/${feedId}` },
      { say: 'Its comments', command: `curl ${CREDENTIALS} ${api}/feeds/${feedId}/comments` },
      {
        say: 'Reply',
        command: `curl -X POST ${CREDENTIALS} -H 'content-type: application/json' -d '{"message":"Thanks!"${comment ? `,"parent_id":${comment}` : ''}}' ${api}/feeds/${feedId}/comments`,
      },
    ],
  };
}

function spacePage(slug: string, api: string): PageContent {
  return {
    title: `Space ${slug}`,
    what: 'A community space (someone joined it, or you were invited): a client app shows its feed here.',
    calls: [
      { say: 'Your spaces, with their ids', command: `curl ${CREDENTIALS} ${api}/profile/LOGIN/spaces` },
      { say: 'The feeds of a space', command: `curl ${CREDENTIALS} '${api}/feeds?space_id=SPACE_ID'` },
    ],
  };
}

function lessonPage(courseId: string, lessonId: string, commentId: string | null, api: string): PageContent {
  const lesson = `${api}/courses/${courseId}/lessons/${lessonId}`;
  const comment = commentId && /^\d+$/.test(commentId) ? ` (comment ${commentId})` : '';
  return {
    title: `Lesson ${lessonId} of course ${courseId}${comment}`,
    what: 'A lesson of a course (a comment on it, a completion): a client app opens the lesson here.',
    calls: [
      { say: 'Its comments', command: `curl ${CREDENTIALS} ${lesson}/comments` },
      { say: 'Mark it complete', command: `curl -X PUT ${CREDENTIALS} ${lesson}/completion` },
    ],
  };
}

async function invitationPage(token: string, api: string): Promise<AppPage> {
  const invitation = await previewInvitation(token);
  const accept = `${api}/invitations/${encodeURIComponent(token)}/accept`;
  if (!invitation) {
    return page(404, {
      title: 'Invitation not found',
      what: 'This invitation link is unknown or was already used (an invitation works once).',
      calls: [],
    });
  }
  return page(200, {
    title: `Invitation to join ${invitation.space_title}`,
    what:
      `An invitation for <strong>${escapeHtml(invitation.email)}</strong> to join the space ` +
      `<strong>${escapeHtml(invitation.space_title)}</strong>. Accept it as the account of that e-mail address ` +
      '(the link works once).',
    calls: [{ say: 'Accept', command: `curl -X POST ${CREDENTIALS} ${quoted(accept)}` }],
  });
}

function page(status: number, content: PageContent): AppPage {
  const calls = content.calls
    .map((call) => `<p>${escapeHtml(call.say)}:</p>\n<pre><code>${escapeHtml(call.command)}</code></pre>`)
    .join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(content.title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}</style>',
    '</head><body>',
    `<h1>${escapeHtml(content.title)}</h1>`,
    `<p>${content.what}</p>`,
    calls,
    calls ? `<p><small>${CREDENTIALS_HINT}</small></p>` : '',
    '<p><small>A page of the local stack, standing in for a client app (set APP_LINK_TEMPLATE to link to one).</small></p>',
    '</body></html>',
  ].join('\n');
  return { status, html };
}
