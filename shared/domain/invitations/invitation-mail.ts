import { env } from '../../config/env.ts';
import type { OutgoingMail } from '../../integrations/mailer.ts';
import type { SpaceItem } from '../spaces/index.ts';
import type { UserItem } from '../users/index.ts';

/** Where an invitation is accepted: `<base url>/invitations/<token>/accept` (a POST by the invited account). */
export const acceptanceLink = (token: string): string =>
  `${env().PUBLIC_BASE_URL.replace(/\/+$/, '')}/invitations/${token}/accept`;

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
