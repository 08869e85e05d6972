/** The invitations domain's public surface: what other domains may use (README, import rules). */
export { acceptInvitation } from './accept-invitation.ts';
export { createInvitation, type NewInvitation } from './create-invitation.ts';
export { previewInvitation } from './preview-invitation.ts';
export type { InvitationItem, InvitationStatus } from './invitation-item.ts';
