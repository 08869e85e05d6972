import { AppError, notFound } from '../../errors/app-error.ts';

/**
 * Feed errors. The contract names no code for feeds, comments or spaces; decisions.md gives `not_found` for
 * unknown spaces, and feeds and comments follow it. A feed the caller may not see answers exactly like an unknown
 * one, so existence never leaks.
 */
export const feedNotFound = () => notFound('not_found', 'Feed not found.');
export const spaceNotFound = () => notFound('not_found', 'Space not found.');

/** A required parameter the contract cannot mark required (it depends on a setting). */
export const missingParam = (name: string) =>
  new AppError('rest_missing_callback_param', 400, `Missing parameter(s): ${name}`, { params: [name] });
