import type { Caller } from '../auth/index.ts';
import { type AuthorCommentRow, listAuthorComments } from '../feeds/index.ts';
import { type MemberSummary, toMemberSummary, userRead } from '../users/index.ts';
import { userNotFound } from './profile-errors.ts';
import { findProfileRecord } from './profile-repository.ts';
import { assertReadable, resolveUserId } from './profile-user.ts';

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
  // The member's user item is read in the page's own BatchGetItem (with the author's counters and the page's
  // posts): three rounds in all for page 1. Nothing of the page is answered (not even its error) before the
  // profile is found readable.
  const userId = await resolveUserId(username);
  const paging = { page: input.page, perPage: input.per_page, cursor: input.cursor };
  const found = await listAuthorComments(caller, userId, paging, userRead(userId)).catch(
    async (error: unknown) => {
      const record = await findProfileRecord(userId);
      if (record === undefined) throw userNotFound();
      assertReadable(caller, record);
      throw error;
    },
  );
  const user = found.alongside;
  if (user === undefined) throw userNotFound();
  assertReadable(caller, { user });
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
