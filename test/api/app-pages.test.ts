import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { appLink } from '../../shared/domain/app-link.ts';
import { api, apiUrl, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace } from '../support/feeds.ts';
import { acceptanceLinkIn, mailsTo } from '../support/ses-inbox.ts';

/**
 * The links people click open something: with no client app configured (`APP_LINK_TEMPLATE` unset, the invitation
 * link at its default), the local stack answers each default link with a page that says what it is and how to
 * act on it (infra/local/app-pages.ts). API clients of the accept route still get the API's answer.
 */
const HTML = { accept: 'text/html,application/xhtml+xml' };
const origin = () => new URL(apiUrl()).origin;

async function page(url: string, headers: Record<string, string> = HTML) {
  const response = await fetch(url, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

let moderator: TestUser;
let spaceId: number;
beforeAll(async () => {
  moderator = await createTestUser();
  spaceId = await createSpace({ privacy: 'private', members: [[moderator, 'moderator']] });
});

describe('pages of the default links', () => {
  it('a notification link in an e-mail is on the API origin and opens a page of the feed and comment', async () => {
    const link = appLink('/feeds/2?comment_id=1');
    expect(link).toBe(`${origin()}/feeds/2?comment_id=1`);
    const answer = await page(link);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/html');
    expect(answer.text).toContain('Comment 1 on feed 2');
    expect(answer.text).toContain(`${apiUrl()}/feeds/2/comments`);
  });

  it('a profile link opens the profile page, with the calls to read and follow it; the name is escaped', async () => {
    const answer = await page(appLink('/u/bob'));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Profile of @bob');
    expect(answer.text).toContain(`${apiUrl()}/profile/bob/follow`);
    const hostile = await page(`${origin()}/u/${encodeURIComponent('<script>x</script>')}`);
    expect(hostile.text).not.toContain('<script>x');
    expect(hostile.text).toContain('&lt;script&gt;');
  });

  it('the invitation link shows the invitation and the call that accepts it, and stops once it is used', async () => {
    const email = `invitee_${randomBytes(5).toString('hex')}@example.com`;
    const invitee = await createTestUser({ email });
    const created = await api('POST', '/invitations', { as: moderator, body: { space_id: spaceId, email } });
    expect(created.status, created.text).toBe(201);
    const link = acceptanceLinkIn((await mailsTo(email))[0]);

    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Invitation to join');
    expect(shown.text).toContain(email);
    expect(shown.text).toContain(`curl -X POST -u &#39;LOGIN:APPLICATION PASSWORD&#39; &#39;${link}&#39;`);

    // An API client (no text/html) gets the API's answer, as from API Gateway: GET is no route.
    const asApi = await api('GET', link.slice(apiUrl().length));
    expect(asApi.status).toBe(404);
    expect(asApi.body).toMatchObject({ code: 'rest_no_route' });

    expect((await api('POST', link.slice(apiUrl().length), { as: invitee })).status).toBe(200);
    const used = await page(link);
    expect(used.status).toBe(404);
    expect(used.text).toContain('Invitation not found');
  });
});
