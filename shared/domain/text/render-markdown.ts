/**
 * Markdown → the sanitized HTML of every `*_rendered` field (decisions.md "Text"). No Markdown library is
 * installed yet, so this renders the safe subset that needs no parser: the text is HTML-escaped, blank lines
 * separate paragraphs, single newlines become `<br>`, and `@username` links to the profile. Everything that calls
 * it goes through this one function, so a real renderer (with the same sanitizing rules) can replace the body.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

// A mention is `@` + a username (decisions.md: [a-z0-9_], 3..100), not preceded by a word character (e-mails).
const MENTION = /(^|[^A-Za-z0-9_@])@([A-Za-z0-9_]{3,100})\b/g;

export function renderMarkdown(markdown: string): string {
  const paragraphs = markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return paragraphs
    .map((paragraph) => {
      const html = escapeHtml(paragraph)
        .replace(MENTION, (_match, before: string, name: string) => {
          const username = name.toLowerCase();
          return `${before}<a href="/u/${username}" class="mention" rel="nofollow ugc noopener">@${name}</a>`;
        })
        .replace(/\n/g, '<br>');
      return `<p>${html}</p>`;
    })
    .join('\n');
}

/** The usernames mentioned in a message (lower-cased, unique), for mention notifications. */
export function mentionedUsernames(markdown: string): string[] {
  const names = new Set<string>();
  for (const match of markdown.matchAll(MENTION)) names.add(match[2]!.toLowerCase());
  return [...names];
}
