/**
 * The one error type the domain throws. `code` is the contract's stable machine-readable code, `status` the HTTP
 * status the contract gives it, `data` the extra keys some codes carry (e.g. `data.field` for `invalid_url`).
 * The HTTP layer renders it; the domain never knows about HTTP beyond this number.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Readonly<Record<string, unknown>>;
  /** For a 429: the seconds after which trying again may succeed, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: string,
    status: number,
    message: string,
    data: Record<string, unknown> = {},
    options: { readonly retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.data = data;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** Errors shared by every domain; domain-specific ones live beside their use cases. */
export const forbidden = (message = 'Sorry, you are not allowed to do that.') =>
  new AppError('rest_forbidden', 403, message);

export const notFound = (code: string, message: string) => new AppError(code, 404, message);

/** No user has this id, username or login (profiles, a user's feeds, media owners, the operator CLI). */
export const userNotFound = (message = 'User not found.') => notFound('user_not_found', message);

export const invalidParams = (params: Record<string, string>, message?: string) =>
  new AppError(
    'rest_invalid_param',
    400,
    message ?? `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
    { params },
  );
