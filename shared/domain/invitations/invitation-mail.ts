import { env } from '../../config/env.ts';
import type { OutgoingMail } from '../../integrations/mailer.ts';
import type { SpaceItem } from '../spaces/index.ts';
import type { UserItem } from '../users/index.ts';

export const INVITATION_TOKEN_PLACEHOLDER = '{token}';

/**
 * The invitation e-mail's link: `INVITATION_LINK_TEMPLATE` with the token in place of `{token}`, so a client app
 * owns the page a person opens (it shows the invitation and accepts it with a POST by the invited account);
 * without a template, the API's accept route `<base url>/invitations/<token>/accept` (the local stack answers a
 * browser's GET of it with a page, infra/local/app-pages.ts). The template is the one documented place: no other
 * setting (`APP_LINK_TEMPLATE` included) changes this link.
 */
export function acceptanceLink(token: string): string {
  const template = env().INVITATION_LINK_TEMPLATE;
  if (template !== '') return template.replaceAll(INVITATION_TOKEN_PLACEHOLDER, encodeURIComponent(token));
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, '')}/invitations/${token}/accept`;
}

/** The invitation e-mail: plain text (names are the users' own text, so no HTML part to escape them into). */
export function composeInvitationMail(input: {
  to: string;
  inviteeName: string;
  space: SpaceItem;
  inviter: UserItem;
  token: string;
}): OutgoingMail {
  const greeting = input.inviteeName ? `Hello ${input.inviteeName},` : 'Hello,';
  return {
    to: input.to,
    subject: `${input.inviter.display_name} invited you to join ${input.space.title}`,
    text: [
      greeting,
      `${input.inviter.display_name} invited you to join the space "${input.space.title}".`,
      `Sign in with the account of this e-mail address and accept the invitation here (it works once):\n${acceptanceLink(input.token)}`,
    ].join('\n\n'),
  };
}
