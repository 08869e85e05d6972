import { AppError } from '../../errors/app-error.ts';
import { USERNAME_MAX_LENGTH } from '../../vocabulary/profiles.ts';

/** The profile errors of the contract ("Errors") and decisions.md ("Users, profiles and roles"). */
export { userNotFound } from '../../errors/app-error.ts';

export const invalidUsername = () =>
  new AppError(
    'invalid_username',
    400,
    `The username may hold only letters, digits, _ and -, at most ${USERNAME_MAX_LENGTH}.`,
  );

export const profileNotActive = () => new AppError('rest_forbidden', 403, 'This profile is not active.');

/** `data.field` names the offending field: `website`, `avatar`, `cover_photo` or `social_links.<key>`. */
export const invalidUrl = (field: string) =>
  new AppError('invalid_url', 400, `The ${field} must be an absolute http or https URL.`, { field });

export const cannotFollowYourself = () =>
  new AppError('rest_invalid_param', 400, 'You cannot follow yourself.', {
    params: { username: 'is the caller' },
  });

export const spacesHidden = () =>
  new AppError('permission_failed', 403, "The site's privacy settings hide this member's spaces.");
