import * as v from 'valibot';
import { invitationKey, invitationTokenKey, spaceInvitations } from '../../db/keys/invitations.ts';
import { indexEntry } from '../../db/partition.ts';
import { timeSort } from '../../db/keys/sort.ts';

const integer = v.pipe(v.number(), v.integer());

export const INVITATION_STATUSES = ['pending', 'accepted'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * An e-mail invitation into a space as stored (`INVITATION#<id>` / `INVITATION`). The acceptance token itself is
 * never stored: only its SHA-256, on the token lookup item. `emails_sent` is the contract's `reactions_count`
 * (how many e-mails went out for it, as on the original platform).
 */
export const InvitationItemSchema = v.object({
  id: integer,
  space_id: integer,
  inviter_id: integer,
  /** Lower-cased. */
  email: v.string(),
  invitee_name: v.string(),
  status: v.picklist(INVITATION_STATUSES),
  emails_sent: integer,
  accepted_by: v.optional(integer),
  created_at: v.string(),
  updated_at: v.string(),
});
export type InvitationItem = v.InferOutput<typeof InvitationItemSchema>;

export const storedInvitation = (invitation: InvitationItem) => ({
  ...invitationKey(invitation.id),
  entity: 'invitation',
  ...invitation,
  ...indexEntry(spaceInvitations(invitation.space_id), timeSort(invitation.created_at, invitation.id)),
});

/**
 * The token's item names the invitation and (since issue 20) its space, so an acceptance reads the invitation and
 * the space together. Tokens stored before carry no `space_id`: their acceptance reads the invitation first.
 */
export const InvitationTokenItemSchema = v.object({
  invitation_id: integer,
  space_id: v.optional(integer),
});
export type InvitationTokenItem = v.InferOutput<typeof InvitationTokenItemSchema>;

export const storedInvitationToken = (
  tokenHash: string,
  invitation: Pick<InvitationItem, 'id' | 'space_id'>,
) => ({
  ...invitationTokenKey(tokenHash),
  entity: 'invitation_token',
  invitation_id: invitation.id,
  space_id: invitation.space_id,
});

/**
 * The uniqueness guard of (space, inviter, e-mail): `sending` while one request holds the claim to send the
 * e-mail (until `claimed_until`, epoch ms), `sent` once the invitation is stored. Its existence in state `sent` is
 * `already_invited`, whatever the invitation's status.
 */
export const InvitationGuardItemSchema = v.object({
  state: v.picklist(['sending', 'sent']),
  claimed_until: v.optional(v.number()),
  invitation_id: v.optional(integer),
});
export type InvitationGuardItem = v.InferOutput<typeof InvitationGuardItemSchema>;
