import { describe, expect, it } from 'vitest';
import {
  mentionedUsernames,
  renderMarkdown,
  renderMessage,
} from '../../shared/domain/text/render-markdown.ts';

/**
 * The renderer of every `*_rendered` field (decisions.md "Text"): Markdown to HTML with no script, no event
 * handler, no `javascript:` (or other non-web) URL, `rel="nofollow ugc noopener"` on links, `@username` linked to
 * the profile. The HTML checks below look at the tags the output contains, not at visible text: escaped source
 * text (`&lt;script&gt;`) is text, not markup.
 */

/** Every start tag of the output with its attributes. */
function tags(html: string): { name: string; attributes: Record<string, string> }[] {
  return [...html.matchAll(/<([a-z0-9]+)([^>]*)>/gi)].map((match) => ({
    name: (match[1] as string).toLowerCase(),
    attributes: Object.fromEntries(
      [...(match[2] as string).matchAll(/([^\s=]+)(?:="([^"]*)")?/g)].map((attribute) => [
        (attribute[1] as string).toLowerCase(),
        attribute[2] ?? '',
      ]),
    ),
  }));
}

function expectSafe(html: string) {
  for (const tag of tags(html)) {
    expect(['script', 'iframe', 'object', 'embed', 'style', 'svg', 'math']).not.toContain(tag.name);
    for (const [name, value] of Object.entries(tag.attributes)) {
      expect(name.startsWith('on'), `${tag.name} ${name}`).toBe(false);
      expect(name).not.toBe('style');
      if (name === 'href' || name === 'src')
        expect(value).toMatch(/^(https?:|mailto:|\/|#|[a-z0-9._~-]+(\/|$))/i);
    }
    if (tag.name === 'a') expect(tag.attributes.rel).toBe('nofollow ugc noopener');
  }
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD4=)',
  '![x](data:image/svg+xml;base64,PHN2Zz4=)',
  '![x](javascript:alert(1))',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '[x]( javascript:alert(1) )',
  '<javascript:alert(1)>',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '`<script>` and ```\n<script>alert(1)</script>\n```',
  '<p onclick="x">hi</p>',
  '"><script>alert(1)</script>',
];

describe('renderMarkdown', () => {
  it.each(HOSTILE)('renders %j without script, handler or unsafe URL', (source) => {
    const html = renderMarkdown(source);
    expectSafe(html);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
  });

  it('renders Markdown: emphasis, lists, code, quotes, headings, line breaks', () => {
    expect(renderMarkdown('**b** _i_ `c`')).toBe('<p><strong>b</strong> <em>i</em> <code>c</code></p>');
    expect(renderMarkdown('- a\n- b')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(renderMarkdown('> q')).toBe('<blockquote>\n<p>q</p>\n</blockquote>');
    expect(renderMarkdown('# T')).toBe('<h1>T</h1>');
    expect(renderMarkdown('one\ntwo')).toBe('<p>one<br>\ntwo</p>');
    expect(renderMarkdown('')).toBe('');
  });

  it('keeps web links with rel="nofollow ugc noopener", and links bare URLs', () => {
    expect(renderMarkdown('[site](https://example.com/a?b=1)')).toBe(
      '<p><a href="https://example.com/a?b=1" rel="nofollow ugc noopener">site</a></p>',
    );
    expect(renderMarkdown('see https://example.com')).toBe(
      '<p>see <a href="https://example.com" rel="nofollow ugc noopener">https://example.com</a></p>',
    );
    expect(renderMarkdown('[mail](mailto:a@example.com) [rel](/spaces/1)')).toContain('href="/spaces/1"');
  });

  it('escapes raw HTML as text', () => {
    expect(renderMarkdown('Hi <b>x</b> & "q"')).toBe('<p>Hi &lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot;</p>');
  });

  it('links @username to the profile, lower-cased, outside links and code; e-mails are not mentions', () => {
    expect(renderMarkdown('Hi @Bob_2!')).toBe(
      '<p>Hi <a href="/u/bob_2" class="mention" rel="nofollow ugc noopener">@Bob_2</a>!</p>',
    );
    expect(renderMarkdown('mail ann@example.com')).toBe('<p>mail ann@example.com</p>');
    expect(renderMarkdown('`@code` [@linked](/x) @ab')).toBe(
      '<p><code>@code</code> <a href="/x" rel="nofollow ugc noopener">@linked</a> @ab</p>',
    );
    expect(renderMessage('@one and **@two** and @one').mentions).toEqual(['one', 'two']);
    expect(mentionedUsernames('```\n@hidden\n```\n`@code` x@y.z')).toEqual([]);
  });
});
