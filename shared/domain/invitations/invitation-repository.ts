import { IdTaken } from '../../db/ids.ts';
import { invitationKey, invitationTokenKey } from '../../db/keys/invitations.ts';
import { itemRead, readTogether } from '../../db/read-together.ts';
import { getItem } from '../../db/reads.ts';
import { deleteAction, putAction, transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import type { TransactAction } from '../../db/transact.ts';
import { findSpaceById, type SpaceItem, spaceRead } from '../spaces/index.ts';
import { type UserItem, userRead } from '../users/index.ts';
import { type GuardRef, guardCommitUpdate } from './invitation-guard-repository.ts';
import {
  type InvitationItem,
  InvitationItemSchema,
  type InvitationTokenItem,
  InvitationTokenItemSchema,
  storedInvitation,
  storedInvitationToken,
} from './invitation-item.ts';

/** Invitations, one method per access pattern (ACCESS_PATTERNS.md, "Invitations"). */

/**
 * Stores the invitation after its e-mail went out: the invitation, its token lookup (the token's hash) and the
 * guard turned `sent`, in one transaction conditioned on our claim. False when the claim was lost (never while the
 * request runs: the lease outlives the function's timeout); `IdTaken` when the invitation's id is already taken.
 */
export async function commitInvitation(
  invitation: InvitationItem,
  tokenHash: string,
  guard: GuardRef,
  claimId: string,
): Promise<boolean> {
  const { key, update } = guardCommitUpdate(guard, claimId, invitation.id);
  const outcome = await transactWriteIfConditionsHold([
    putAction(storedInvitation(invitation), { ifAbsent: true }),
    putAction(storedInvitationToken(tokenHash, invitation), { ifAbsent: true }),
    updateAction(key, update),
  ]);
  if (outcome.written) return true;
  if (outcome.failed.includes(2)) return false;
  if (outcome.failed.includes(0)) throw new IdTaken(invitation.id);
  throw new Error(`Invitation ${invitation.id}: conditions ${outcome.failed.join(', ')} failed`);
}

/** The invitation a token opens (strongly consistent: an accepted one has lost its token). */
export async function findInvitationByTokenHash(tokenHash: string): Promise<InvitationItem | undefined> {
  const token = await getItem(invitationTokenKey(tokenHash), InvitationTokenItemSchema, { consistent: true });
  if (!token) return undefined;
  return getItem(invitationKey(token.invitation_id), InvitationItemSchema, { consistent: true });
}

/**
 * Accepts in one transaction: the token is deleted (it works once), the invitation turns `accepted` (only from
 * `pending`), and `joinActions` (the membership and its counters, first action a create-if-absent) are written.
 * Answers `accepted`, `used` (the token or the pending state went first: a concurrent acceptance) or
 * `already_member` (the membership exists: retried by the caller without it).
 */
/** The token's item and the accepting caller's user item in one strongly consistent BatchGetItem. */
export async function findTokenAndUser(
  tokenHash: string,
  userId: number,
): Promise<{ token: InvitationTokenItem | undefined; user: UserItem | undefined }> {
  const [token, user] = await readTogether([
    itemRead(invitationTokenKey(tokenHash), InvitationTokenItemSchema, { consistent: true }),
    userRead(userId, { consistent: true }),
  ]);
  return { token, user };
}

/**
 * The invitation a token names and its space (strongly consistent): one BatchGetItem when the token carries the
 * space's id, else (a token stored before it did) the invitation, then the space.
 */
export async function findInvitationAndSpace(
  token: InvitationTokenItem,
): Promise<{ invitation: InvitationItem | undefined; space: SpaceItem | undefined }> {
  if (token.space_id === undefined) {
    const invitation = await getItem(invitationKey(token.invitation_id), InvitationItemSchema, {
      consistent: true,
    });
    const space = invitation ? await findSpaceById(invitation.space_id) : undefined;
    return { invitation, space };
  }
  const consistent = { consistent: true };
  const [invitation, space] = await readTogether([
    itemRead(invitationKey(token.invitation_id), InvitationItemSchema, consistent),
    spaceRead(token.space_id, consistent),
  ]);
  return { invitation, space };
}

export async function acceptInvitationWrites(
  invitation: InvitationItem,
  tokenHash: string,
  userId: number,
  acceptedAt: string,
  joinActions: readonly TransactAction[],
): Promise<'accepted' | 'used' | 'already_member'> {
  const outcome = await transactWriteIfConditionsHold([
    deleteAction(invitationTokenKey(tokenHash), { ConditionExpression: 'attribute_exists(pk)' }),
    updateAction(invitationKey(invitation.id), {
      UpdateExpression: 'SET #status = :accepted, accepted_by = :user, updated_at = :at',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':accepted': 'accepted',
        ':pending': 'pending',
        ':user': userId,
        ':at': acceptedAt,
      },
    }),
    ...joinActions,
  ]);
  if (outcome.written) return 'accepted';
  if (outcome.failed.includes(0) || outcome.failed.includes(1)) return 'used';
  return 'already_member';
}
