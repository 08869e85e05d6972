import markdownIt, { type MarkdownIt, type StateCore } from 'markdown-it';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../../vocabulary/profiles.ts';

/**
 * Markdown → the sanitized HTML of every `*_rendered` field (decisions.md "Text"), by markdown-it configured so that
 * it can only emit its own markup:
 *
 * - `html: false`: raw HTML in a message is text (escaped), so no `<script>`, no tag with an event handler, no
 *   `style` can come from the source; markdown-it writes attributes only for the elements it creates, escaped;
 * - links and images pass `validateLink`: only `http:`, `https:`, `mailto:` and scheme-less (relative) URLs, so no
 *   `javascript:`, `vbscript:`, `data:` or `file:` URL is ever written (a refused link stays literal text);
 * - every link gets `rel="nofollow ugc noopener"`;
 * - `@username` outside links and code becomes a link to the profile, `/u/<username>` (usernames are lower-case).
 *
 * No regex touches HTML here: the only pattern is the mention finder, which runs on text tokens markdown-it has
 * already parsed and escapes nothing itself (markdown-it renders the tokens it is given).
 */
const LINK_REL = 'nofollow ugc noopener';
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
/** A URL scheme: letters, digits, `+`, `-`, `.` before the first `:` (RFC 3986). */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/**
 * `@` + a username (decisions.md: [a-z0-9_] within the username limits), not preceded by a word character (e-mail
 * addresses).
 */
const MENTION = new RegExp(
  `(^|[^A-Za-z0-9_@])@([A-Za-z0-9_]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}})\\b`,
  'g',
);

type RenderEnv = { mentions?: Set<string> } & Record<string, unknown>;

let renderer: MarkdownIt | undefined;

function markdown(): MarkdownIt {
  if (renderer) return renderer;
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  md.linkify.set({ fuzzyEmail: false });
  md.validateLink = (url: string) => {
    // markdown-it hands the URL as written; control characters and spaces inside a scheme are stripped by
    // browsers, so they are stripped here before the scheme is judged.
    const compact = [...url]
      .filter((char) => char.charCodeAt(0) > 0x20 && char.charCodeAt(0) !== 0x7f && char.trim() !== '')
      .join('');
    const scheme = SCHEME.exec(compact)?.[1];
    return scheme === undefined || ALLOWED_SCHEMES.has(`${scheme.toLowerCase()}:`);
  };
  md.core.ruler.after('text_join', 'mention', (state) => {
    const env = state.env as RenderEnv;
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const children: typeof block.children = [];
      let linkDepth = 0;
      for (const token of block.children) {
        if (token.type === 'link_open') linkDepth++;
        if (token.type === 'link_close') linkDepth--;
        if (token.type !== 'text' || linkDepth > 0 || !token.content.includes('@')) {
          children.push(token);
          continue;
        }
        let last = 0;
        for (const match of token.content.matchAll(MENTION)) {
          const start = (match.index ?? 0) + (match[1]?.length ?? 0);
          const name = match[2] as string;
          const username = name.toLowerCase();
          if (start > last) children.push(textToken(state, token.content.slice(last, start)));
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [
            ['href', `/u/${username}`],
            ['class', 'mention'],
          ];
          children.push(open, textToken(state, `@${name}`), new state.Token('link_close', 'a', -1));
          env.mentions?.add(username);
          last = start + name.length + 1;
        }
        if (last === 0) children.push(token);
        else if (last < token.content.length) children.push(textToken(state, token.content.slice(last)));
      }
      block.children = children;
    }
  });
  const renderLinkOpen =
    md.renderer.rules.link_open ??
    ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]?.attrSet('rel', LINK_REL);
    return renderLinkOpen(tokens, idx, options, env, self);
  };
  renderer = md;
  return md;
}

function textToken(state: StateCore, content: string) {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}

/** The HTML of a message and the usernames it mentions (lower-cased, outside links and code). */
export function renderMessage(source: string): { html: string; mentions: string[] } {
  const env: RenderEnv = { mentions: new Set() };
  const html = markdown().render(source, env).trim();
  return { html, mentions: [...(env.mentions ?? [])] };
}

export function renderMarkdown(source: string): string {
  return renderMessage(source).html;
}

/** The usernames mentioned in a message (lower-cased, unique), for mention notifications. */
export function mentionedUsernames(source: string): string[] {
  return renderMessage(source).mentions;
}
