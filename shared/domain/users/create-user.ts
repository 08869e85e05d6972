import { passwordPepper } from '../../config/pepper.ts';
import { withFreshId } from '../../db/ids.ts';
import { AppError } from '../../errors/app-error.ts';
import type { CommunityRole, HostRole, ProfileStatus } from '../../vocabulary/roles.ts';
import { nowIso } from '../dates.ts';
import type { UserItem } from './user-item.ts';
import { formatAppPassword, generateAppPassword, hashSecret, isValidAppPassword } from './secret-hash.ts';
import { insertUser } from './user-repository.ts';
import { isValidEmail, normalizeUsername, usernameProblem } from './username.ts';

export interface NewUser {
  readonly login: string;
  readonly email: string;
  readonly displayName?: string | undefined;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
  readonly hostRole?: HostRole | undefined;
  readonly communityRole?: CommunityRole | null | undefined;
  readonly status?: ProfileStatus | undefined;
  /** An explicit application password (24 letters and digits); generated when absent. */
  readonly appPassword?: string | null | undefined;
  readonly bio?: string | undefined;
  readonly website?: string | undefined;
  readonly createdAt?: string | undefined;
}

export interface CreatedUser {
  readonly id: number;
  readonly username: string;
  /** Shown once, grouped by four; only its keyed hash is stored. */
  readonly app_password: string;
}

const invalid = (message: string) => new AppError('invalid_user', 400, message);

/** Checks a new user's fields; returns the normalized login and e-mail or throws naming the problem. */
export function validateNewUser(input: NewUser): { username: string; email: string; appPassword: string } {
  const username = normalizeUsername(input.login);
  const problem = usernameProblem(username);
  if (problem) throw invalid(`Login "${input.login}" ${problem}.`);
  const email = input.email.trim().toLowerCase();
  if (!isValidEmail(email)) throw invalid(`E-mail "${input.email}" is not a valid address.`);
  const appPassword = input.appPassword?.replace(/\s+/g, '') || generateAppPassword();
  if (!isValidAppPassword(appPassword))
    throw invalid('The application password must be 24 letters and digits.');
  return { username, email, appPassword };
}

/** Builds the stored user from validated input (the import uses it too). */
export function buildUserItem(id: number, input: NewUser, username: string, email: string): UserItem {
  const createdAt = input.createdAt ?? nowIso();
  return {
    id,
    username,
    email,
    display_name: input.displayName?.trim() || username,
    first_name: input.firstName ?? '',
    last_name: input.lastName ?? '',
    status: input.status ?? 'active',
    host_role: input.hostRole ?? 'member',
    community_roles: input.communityRole ? [input.communityRole] : [],
    avatar: '',
    cover_photo: '',
    short_description: input.bio ?? '',
    short_description_rendered: '',
    website: input.website ?? '',
    location: '',
    social_links: {},
    badge_slugs: [],
    is_verified: 0,
    total_points: 0,
    followers_count: 0,
    followings_count: 0,
    created_at: createdAt,
    updated_at: createdAt,
    last_activity: createdAt,
  };
}

/** Creates a user with a first application password (operator CLI `user:create`, first-start admin). */
export async function createUser(input: NewUser): Promise<CreatedUser> {
  const { username, email, appPassword } = validateNewUser(input);
  const pepper = await passwordPepper();
  const hash = hashSecret(appPassword, pepper);
  const id = await withFreshId(async (id) => {
    await insertUser(buildUserItem(id, input, username, email), hash);
    return id;
  });
  return { id, username, app_password: formatAppPassword(appPassword) };
}
