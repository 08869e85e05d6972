import { findSpaceById } from '../spaces/index.ts';
import { findInvitationByTokenHash } from './invitation-repository.ts';
import { hashInvitationToken, TOKEN_PATTERN } from './invitation-token.ts';

/**
 * What an invitation link opens, for the page a person lands on from the e-mail (the local stack's page for the
 * default link): the space and the invited address of a pending invitation, or undefined when the token is unknown
 * or used. The token is the secret of that e-mail, so its holder learns only what the e-mail already told them.
 * Two strongly consistent reads (the token, then the invitation) and one of the space.
 */
export async function previewInvitation(
  token: string,
): Promise<{ email: string; space_title: string; space_id: number } | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const invitation = await findInvitationByTokenHash(hashInvitationToken(token));
  if (invitation?.status !== 'pending') return undefined;
  const space = await findSpaceById(invitation.space_id);
  if (!space) return undefined;
  return { email: invitation.email, space_title: space.title, space_id: space.id };
}
