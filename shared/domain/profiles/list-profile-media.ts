import type { Caller } from '../auth/index.ts';
import { listMemberMedia, type MemberMediaInput, type MemberMediaPage } from '../media/index.ts';
import { loadReadableProfile } from './profile-user.ts';

export type ListProfileMediaInput = MemberMediaInput;
export type MediaPage = MemberMediaPage;

/**
 * `GET /profile/{username}/media`: the member's media the caller may see, once the profile is readable by the
 * caller (media/list-member-media.ts decides what each caller sees and counts).
 */
export async function listProfileMedia(
  caller: Caller,
  username: string,
  input: ListProfileMediaInput,
): Promise<MediaPage> {
  const { user } = await loadReadableProfile(caller, username);
  return listMemberMedia(caller, user.id, input);
}
