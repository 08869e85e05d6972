import * as v from 'valibot';
import { MEDIA_OBJECT_SOURCES, MEDIA_TYPES } from '../vocabulary/media.ts';
import { paginatorB, paginatorD } from './envelopes.ts';
import { cursorQuery, integer, isoDateTime, pageQuery, perPageQuery } from './fields.ts';
import { memberSummarySchema } from './members.ts';
import { named } from './openapi-metadata.ts';
import { defineOperation } from './operation.ts';
import {
  INVALID,
  INVALID_USERNAME,
  NOT_ACTIVE,
  TAGS,
  USER_NOT_FOUND,
  usernameParams,
} from './profile-schemas.ts';
import { commentRowEntries } from './feed-schemas.ts';
import { spaceSettingsEntries, spaceSummaryEntries } from './space-fields.ts';

// ---- Comments ------------------------------------------------------------------------------------------------------

const profileCommentSchema = v.pipe(
  v.object({
    ...commentRowEntries,
    post: v.pipe(
      v.nullable(
        v.object({ id: integer(), title: v.string(), slug: v.string(), space_id: v.nullable(integer()) }),
      ),
      v.description('The feed commented on (null only if it was deleted meanwhile).'),
    ),
  }),
  named('ProfileComment'),
);

export const listProfileComments = defineOperation({
  operationId: 'listProfileComments',
  summary: 'A member’s comments (paginator B, newest first)',
  description:
    'The member’s published comments on feeds the caller may see (public spaces and the global feed; private and ' +
    'secret spaces only to their members; everything to the member and community moderators), newest first, with ' +
    'the member’s summary in `xprofile`. `total` counts exactly what the caller may page through. ' +
    '`next_page_url` carries an opaque `cursor`: following it costs one page.',
  tags: TAGS,
  params: usernameParams,
  query: v.object({ page: pageQuery(), per_page: perPageQuery(20), cursor: cursorQuery() }),
  response: v.object({ comments: paginatorB(profileCommentSchema), xprofile: memberSummarySchema }),
  errors: [INVALID, INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});

// ---- Spaces --------------------------------------------------------------------------------------------------------

const yesNo = v.string();
const profileSpaceSchema = v.pipe(
  v.object({
    ...spaceSummaryEntries,
    settings: v.object(
      spaceSettingsEntries(
        yesNo,
        v.object({
          slug: v.string(),
          title: v.string(),
          emoji: v.string(),
          enabled: yesNo,
          new_tab: yesNo,
          permalink: v.string(),
        }),
      ),
    ),
    members_count: v.pipe(
      integer(),
      v.description('0 where `hide_members_count` is on and the caller is not a member of the space.'),
    ),
    pivot: v.object({
      created_at: isoDateTime(),
      role: v.string(),
      space_id: integer(),
      status: v.string(),
      user_id: integer(),
    }),
  }),
  named('ProfileSpace'),
);

export const listProfileSpaces = defineOperation({
  operationId: 'listProfileSpaces',
  summary: 'The spaces a member belongs to',
  description:
    'The community spaces the member actively belongs to, in joining order, with `members_count` and the ' +
    'membership as `pivot`. Secret spaces appear only to the member and community moderators. Gated by the privacy ' +
    'setting `user_space_visibility`: `everybody` (default) and `logged_in` let every caller through; with ' +
    '`admin_only` only the member and community moderators pass, others get 403 `permission_failed`.',
  tags: TAGS,
  params: usernameParams,
  response: v.object({ spaces: v.array(profileSpaceSchema) }),
  errors: [
    INVALID_USERNAME,
    NOT_ACTIVE,
    { status: 403, code: 'permission_failed', description: '`user_space_visibility` is `admin_only`.' },
    USER_NOT_FOUND,
  ],
});

// ---- Media ---------------------------------------------------------------------------------------------------------

const mediaListItemSchema = v.pipe(
  v.object({
    id: integer(),
    file_name: v.string(),
    file_url: v.string(),
    file_type: v.picklist(MEDIA_TYPES),
    thumbnail_url: v.nullable(v.string()),
    created_at: isoDateTime(),
  }),
  named('MediaListItem'),
);

export const listProfileMedia = defineOperation({
  operationId: 'listProfileMedia',
  summary: 'A member’s media (paginator D, newest first)',
  description:
    'The member’s uploaded media, newest first; `file_type` (a MIME type) and `object_source` filter. A caller ' +
    'sees an item only if it could see the object it is attached to (a feed or comment as the feed lists decide, ' +
    'a space unless it is secret and the caller not a member, the profile itself); unattached items only the ' +
    'member and community moderators. For them `meta.total` is exact; for others it counts the member’s attached ' +
    'media of the filter, and an item attached to something the caller may not see is left out of `data`, so a ' +
    'page may hold fewer than `per_page`.',
  tags: TAGS,
  params: usernameParams,
  query: v.object({
    page: pageQuery(),
    per_page: perPageQuery(20),
    file_type: v.optional(v.picklist(MEDIA_TYPES, `must be one of ${MEDIA_TYPES.join(', ')}`)),
    object_source: v.optional(
      v.picklist(MEDIA_OBJECT_SOURCES, `must be one of ${MEDIA_OBJECT_SOURCES.join(', ')}`),
    ),
  }),
  response: paginatorD(mediaListItemSchema),
  errors: [INVALID, INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});
