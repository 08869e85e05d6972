import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, postFeed } from '../support/feeds.ts';

/** Messages are Markdown rendered to sanitized HTML on the way in, for feeds (create and edit) and comments alike. */

const HOSTILE = [
  'Hello <script>alert(1)</script>',
  '<img src=x onerror="alert(1)">',
  '[click](javascript:alert(1))',
  `@${'placeholder'}`,
].join('\n\n');

/** No script element, no event-handler attribute, no `javascript:` URL in any tag of the HTML. */
function expectSanitized(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/<[a-z][^>]*(href|src)\s*=\s*"?\s*javascript:/i);
  expect(html).not.toMatch(/<img/i);
}

let author: TestUser;
let friend: TestUser;
let space: number;

beforeAll(async () => {
  [author, friend] = await Promise.all([createTestUser(), createTestUser()]);
  space = await createSpace({
    members: [
      [author, 'member'],
      [friend, 'member'],
    ],
  });
});

describe('message_rendered', () => {
  const message = () => HOSTILE.replace('@placeholder', `@${friend.username}`);

  it('renders a feed without <script>, onerror or javascript: links, and links the mention', async () => {
    const feed = await postFeed(author, { space_id: space, message: message() });
    expectSanitized(feed.message_rendered);
    expect(feed.message).toBe(message());
    expect(feed.message_rendered).toContain(
      `<a href="/u/${friend.username}" class="mention" rel="nofollow ugc noopener">@${friend.username}</a>`,
    );
    const edited = await api<{ feed: { message_rendered: string } }>('PUT', `/feeds/${feed.id}`, {
      as: author,
      body: { message: `${message()}\n\n[ok](https://example.com)` },
    });
    expectSanitized(edited.body.feed.message_rendered);
    expect(edited.body.feed.message_rendered).toContain(
      '<a href="https://example.com" rel="nofollow ugc noopener">ok</a>',
    );
  });

  it('renders a comment the same way', async () => {
    const feed = await postFeed(author, { space_id: space });
    const response = await api<{ comment: { message_rendered: string } }>(
      'POST',
      `/feeds/${feed.id}/comments`,
      {
        as: friend,
        body: { message: message() },
      },
    );
    expect(response.status).toBe(201);
    expectSanitized(response.body.comment.message_rendered);
  });
});
