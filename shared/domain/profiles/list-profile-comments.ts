import type { Caller } from '../auth/index.ts';
import { type AuthorCommentRow, listAuthorComments } from '../feeds/index.ts';
import { type MemberSummary, toMemberSummary } from '../users/index.ts';
import { withReadableProfile } from './profile-user.ts';

export interface ListProfileCommentsInput {
  readonly page: number;
  readonly per_page: number;
  readonly cursor?: string | undefined;
}

export interface ProfileCommentsPage {
  readonly page: {
    readonly items: AuthorCommentRow[];
    readonly total: number;
    readonly page: number;
    readonly perPage: number;
    readonly nextCursor: string | null;
  };
  readonly xprofile: MemberSummary;
}

/**
 * `GET /profile/{username}/comments` (decisions.md): the member's published comments on feeds the caller may see,
 * newest first, with the owner's member summary. Totals and visibility: the feeds domain's listAuthorComments.
 */
export async function listProfileComments(
  caller: Caller,
  username: string,
  input: ListProfileCommentsInput,
): Promise<ProfileCommentsPage> {
  // The page is read beside the profile (it needs only the id); dropped if the profile may not be read.
  const {
    record: { user },
    value: found,
  } = await withReadableProfile(caller, username, (userId) =>
    listAuthorComments(caller, userId, { page: input.page, perPage: input.per_page, cursor: input.cursor }),
  );
  return {
    page: {
      items: found.rows,
      total: found.total,
      page: input.page,
      perPage: input.per_page,
      nextCursor: found.nextCursor,
    },
    xprofile: toMemberSummary(user),
  };
}
