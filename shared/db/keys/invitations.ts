import { type ItemKey, indexPartition, type Partition } from '../partition.ts';

export const invitationKey = (invitationId: number): ItemKey => ({
  pk: `INVITATION#${invitationId}`,
  sk: 'INVITATION',
});
/** Uniqueness guard: one invitation per inviter + space + e-mail, whatever its status (`already_invited`). */
export const invitationGuardKey = (spaceId: number, inviterId: number, email: string): ItemKey => ({
  pk: `INVITEGUARD#${spaceId}#${inviterId}#${email.trim().toLowerCase()}`,
  sk: 'INVITEGUARD',
});
/** GSI1: invitations of a space, newest first. */
export const spaceInvitations = (spaceId: number): Partition =>
  indexPartition('GSI1', `SPACE#${spaceId}#INVITATIONS`);
/**
 * The lookup of an invitation by its acceptance token: only the token's SHA-256 (hex) is in the key, never the
 * token. Deleted when the invitation is accepted, so a token works once.
 */
export const invitationTokenKey = (tokenHash: string): ItemKey => ({
  pk: `INVITETOKEN#${tokenHash}`,
  sk: 'INVITETOKEN',
});
