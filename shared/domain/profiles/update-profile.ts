import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { renderMarkdown } from '../text/index.ts';
import { toMemberTimestamps, type UserItem } from '../users/index.ts';
import { invalidUrl, userNotFound } from './profile-errors.ts';
import { findProfileRecord, type ProfileFields, updateProfileFields } from './profile-repository.ts';

/** The body of `PUT /profile/me` as the contract delivers it (unknown fields and social keys already refused). */
export interface UpdateProfileInput {
  readonly display_name?: string | undefined;
  readonly first_name?: string | undefined;
  readonly last_name?: string | undefined;
  readonly bio?: string | undefined;
  readonly location?: string | undefined;
  readonly website?: string | undefined;
  readonly avatar?: string | undefined;
  readonly cover_photo?: string | undefined;
  readonly social_links?: Readonly<Record<string, string | undefined>> | undefined;
}

export interface UpdateProfileResult {
  message: string;
  data: { id: number; display_name: string; bio: string; updated_at: string };
}

/** Absolute `http`/`https` URLs only (decisions.md); an empty string clears the field. */
export function isProfileUrl(value: string): boolean {
  if (value === '') return true;
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The first field whose URL is invalid, in the order the contract names them; undefined when all are fine. */
function firstInvalidUrl(input: UpdateProfileInput): string | undefined {
  for (const field of ['website', 'avatar', 'cover_photo'] as const) {
    const value = input[field];
    if (value !== undefined && !isProfileUrl(value)) return field;
  }
  for (const [key, value] of Object.entries(input.social_links ?? {})) {
    if (value !== undefined && !isProfileUrl(value)) return `social_links.${key}`;
  }
  return undefined;
}

/**
 * `PUT /profile/me`: every field optional. Every URL is checked before anything is written (400 `invalid_url`
 * naming the field), then one conditional update sets the given fields: nothing changes on any error. `bio` is
 * stored as `short_description` with its rendering; `social_links` merges the given keys (an empty string removes
 * one). `display_name` may not be blank: a blank one falls back to the username.
 */
export async function updateProfile(caller: Caller, input: UpdateProfileInput): Promise<UpdateProfileResult> {
  const bad = firstInvalidUrl(input);
  if (bad !== undefined) throw invalidUrl(bad);
  const record = await findProfileRecord(caller.id);
  if (record === undefined) throw userNotFound();
  const user = record.user;

  const fields: ProfileFields = {};
  if (input.display_name !== undefined) fields.display_name = input.display_name.trim() || user.username;
  for (const field of ['first_name', 'last_name', 'location', 'website', 'avatar', 'cover_photo'] as const) {
    const value = input[field];
    if (value !== undefined) fields[field] = value.trim();
  }
  if (input.bio !== undefined) {
    fields.short_description = input.bio;
    fields.short_description_rendered = input.bio === '' ? '' : renderMarkdown(input.bio);
  }
  if (input.social_links !== undefined) fields.social_links = mergedLinks(user, input.social_links);

  const updatedAt = nowIso();
  if (!(await updateProfileFields(user, fields, updatedAt))) throw userNotFound();
  return {
    message: 'Profile has been updated.',
    data: {
      id: caller.id,
      display_name: fields.display_name ?? user.display_name,
      bio: fields.short_description ?? user.short_description,
      updated_at: toMemberTimestamps({ ...user, updated_at: updatedAt }).updated_at,
    },
  };
}

function mergedLinks(user: UserItem, given: Readonly<Record<string, string | undefined>>) {
  const links: Record<string, string> = { ...user.social_links };
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (value.trim() === '') delete links[key];
    else links[key] = value.trim();
  }
  return links;
}
