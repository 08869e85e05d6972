import { AppError } from '../../errors/app-error.ts';

/** The refusals of invitations (decisions.md "Invitations, course admin, search, settings"). */
export const alreadyMember = () =>
  new AppError('already_member', 409, 'This e-mail address already belongs to a member of the space.');

export const alreadyInvited = () =>
  new AppError('already_invited', 409, 'You have already invited this e-mail address to this space.');

export const emailFailed = () =>
  new AppError(
    'email_failed',
    502,
    'The invitation e-mail could not be sent; nothing was stored. Try again.',
  );

export const invitationNotFound = () =>
  new AppError('invitation_not_found', 404, 'This invitation does not exist or has already been used.');
