import { withFreshId } from '../../db/ids.ts';
import { forbidden, notFound } from '../../errors/app-error.ts';
import { sendMail } from '../../integrations/mailer.ts';
import { logger } from '../../observability/logger.ts';
import { type Caller, isSpaceModerator } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { emitNotification } from '../notifications/index.ts';
import { findMembership, findSpaceWithMembership, type SpaceItem } from '../spaces/index.ts';
import { findUserById, findUserIdByEmail, type UserItem } from '../users/index.ts';
import { alreadyInvited, alreadyMember, emailFailed } from './invitation-errors.ts';
import {
  claimInvitationGuard,
  type GuardRef,
  readInvitationGuard,
  releaseInvitationGuard,
} from './invitation-guard-repository.ts';
import type { InvitationItem } from './invitation-item.ts';
import { composeInvitationMail } from './invitation-mail.ts';
import { type Invitation, toInvitation } from './invitation-mapper.ts';
import { commitInvitation } from './invitation-repository.ts';
import { hashInvitationToken, newInvitationToken } from './invitation-token.ts';

/** How long a request waits for an identical one that is sending right now, before answering `already_invited`. */
const BUSY_WAIT_MS = 10_000;
const BUSY_POLL_MS = 100;

export interface NewInvitation {
  readonly space_id: number;
  readonly email: string;
  readonly invitee_name?: string | undefined;
}

/**
 * `POST /invitations` (contract "Invitations", decisions.md). In order:
 *
 * 1. `community_moderator` in the space (decided before the space's existence: others learn nothing), the space.
 * 2. An address whose account has a membership of the space (any status): 409 `already_member`.
 * 3. Claim the guard of (space, caller, e-mail). Taken and `sent`: 409 `already_invited` (any status). Taken by an
 *    identical request sending now: wait for it; it either stored the invitation (409) or failed and released.
 * 4. Send the e-mail through SES, synchronously. On failure release the claim: nothing is stored, 502
 *    `email_failed`, and a retry claims and sends afresh.
 * 5. Commit the invitation, its token's hash and the guard in one transaction; then `space_invite` to an existing
 *    account of that address (in-app only: its e-mail was the invitation).
 */
export async function createInvitation(
  caller: Caller,
  input: NewInvitation,
): Promise<{ invitation: Invitation; message: string }> {
  const email = input.email.trim().toLowerCase();
  // Independent reads in one round: the space and the caller's role, the invited address's account, the inviter.
  const [{ space, membership }, inviteeId, inviter] = await Promise.all([
    findSpaceWithMembership(input.space_id, caller.id),
    findUserIdByEmail(email),
    findUserById(caller.id),
  ]);
  if (!isSpaceModerator(caller, membership)) {
    throw forbidden('Sorry, you are not allowed to invite to this space.');
  }
  if (!space) throw notFound('not_found', 'No space has this id.');
  if (!inviter) throw new Error(`The caller ${caller.id} has no user item`);
  if (inviteeId !== undefined && (await findMembership(space.id, inviteeId))) throw alreadyMember();

  const guard: GuardRef = { spaceId: space.id, inviterId: caller.id, email };
  // The id is drawn at the commit (sendAndStore): no call of its own.
  const claimId = await claimOrWait(guard);
  const invitation = await sendAndStore(guard, claimId, space, inviter, input.invitee_name?.trim() ?? '');
  if (inviteeId !== undefined) await notifyInvitee(inviteeId, invitation, space, inviter);
  return {
    invitation: toInvitation(invitation, space, inviter),
    message: 'Invitation has been sent successfully',
  };
}

/** The claim, once any identical request sending right now has finished. */
async function claimOrWait(guard: GuardRef): Promise<string> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const claim = await claimInvitationGuard(guard);
    if (claim.outcome === 'claimed') return claim.claimId;
    if (claim.outcome === 'sent') throw alreadyInvited();
    // Busy: poll until the other request commits (sent) or releases (gone, or an expired lease): then claim.
    for (;;) {
      if (Date.now() > deadline) throw alreadyInvited();
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
      const current = await readInvitationGuard(guard);
      if (current?.state === 'sent') throw alreadyInvited();
      if (!current || (current.claimed_until ?? 0) < Date.now()) break;
    }
  }
}

async function sendAndStore(
  guard: GuardRef,
  claimId: string,
  space: SpaceItem,
  inviter: UserItem,
  inviteeName: string,
): Promise<InvitationItem> {
  const token = newInvitationToken();
  try {
    await sendMail(composeInvitationMail({ to: guard.email, inviteeName, space, inviter, token }));
  } catch (error) {
    await releaseQuietly(guard, claimId);
    logger.error('invitation e-mail failed', { spaceId: guard.spaceId, error });
    throw emailFailed();
  }
  const createdAt = nowIso();
  // The e-mail carries the token, not the id: a drawn id that is already taken (the invitation item's own
  // guard) draws another without sending again.
  return withFreshId(async (id) => {
    const invitation: InvitationItem = {
      id,
      space_id: space.id,
      inviter_id: inviter.id,
      email: guard.email,
      invitee_name: inviteeName,
      status: 'pending',
      emails_sent: 1,
      created_at: createdAt,
      updated_at: createdAt,
    };
    if (!(await commitInvitation(invitation, hashInvitationToken(token), guard, claimId))) {
      throw new Error(`Invitation ${id}: the claim was lost after its e-mail was sent`);
    }
    return invitation;
  });
}

/** Gives the claim up; if even that fails, the lease still expires and a retry only waits for it. */
async function releaseQuietly(guard: GuardRef, claimId: string): Promise<void> {
  await releaseInvitationGuard(guard, claimId).catch((error: unknown) => {
    logger.warn('could not release the invitation claim', { spaceId: guard.spaceId, error });
  });
}

/** `space_invite` to the account of the invited address; a failure is logged, never undoes the invitation. */
async function notifyInvitee(
  inviteeId: number,
  invitation: InvitationItem,
  space: SpaceItem,
  inviter: UserItem,
): Promise<void> {
  try {
    await emitNotification({
      recipientId: inviteeId,
      type: 'space_invite',
      actorId: inviter.id,
      title: `${inviter.display_name} invited you to join ${space.title}`,
      message: `${inviter.display_name} invited you to join the space "${space.title}". The e-mail we sent holds the link to accept.`,
      actionUrl: `/spaces/${space.slug}`,
      objectId: space.id,
      objectType: 'space',
      alreadyEmailed: true,
    });
  } catch (error) {
    logger.error('could not notify the invitee', { invitationId: invitation.id, error });
  }
}
