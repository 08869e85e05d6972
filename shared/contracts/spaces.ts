import * as v from 'valibot';
import { paginatorB } from './envelopes.ts';
import { cursorQuery, idParam, pageQuery, perPageQuery } from './fields.ts';
import { hostUserCardEntries } from './members.ts';
import { named } from './openapi-metadata.ts';
import { defineOperation } from './operation.ts';

/** Spaces: the search of host users who could be added to a space (contract "Space user search"). */
const SEARCH_MAX_LENGTH = 200;

export const spaceUserCandidateSchema = v.pipe(
  v.object(hostUserCardEntries('community moderators who also hold the host `list_users` capability')),
  named('SpaceUserCandidate'),
);

export const searchSpaceUsers = defineOperation({
  operationId: 'searchSpaceUsers',
  summary: 'Host users who are not yet members of a space',
  description:
    'Active users (suspended and banned accounts are never candidates) with no membership of the space (in any ' +
    'status) whose display name, user name or e-mail starts with `search`, case-insensitively (no `search`: ' +
    'every user), in the order of the matched value. At most 100 candidates in all, paged by `page` and ' +
    '`per_page` (default 100: one page holds them all) as paginator B; `total` counts the candidates. ' +
    'One request examines the first 100 matching users from where it starts (2 DynamoDB rounds whatever the site ' +
    'or the space holds); when members of the space or inactive accounts fill them, the page holds the ' +
    'candidates found, `total` counts those listed so far, and `next_page_url` (with an opaque `cursor`) continues ' +
    'the search where it stopped, even past `last_page`: follow it until it is null. ' +
    "Requires `can_add_member` in the space (global admins, the space's admins): others get 403 " +
    '`rest_forbidden` whatever the space id; an unknown space is 404 `not_found`.',
  tags: ['Spaces'],
  query: v.object({
    space_id: idParam(),
    search: v.optional(
      v.pipe(v.string(), v.maxLength(SEARCH_MAX_LENGTH, `must be at most ${SEARCH_MAX_LENGTH} characters`)),
    ),
    page: pageQuery(),
    per_page: perPageQuery(100),
    cursor: cursorQuery(),
  }),
  response: v.object({ users: paginatorB(spaceUserCandidateSchema) }),
  errors: [
    {
      status: 403,
      code: 'rest_forbidden',
      description: "The caller lacks `can_add_member` in the space (a global admin or the space's admin).",
    },
    { status: 404, code: 'not_found', description: 'No space has this id.' },
  ],
});
