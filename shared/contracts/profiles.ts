import * as v from 'valibot';
import { BIO_MAX_BYTES, PROFILE_SOCIAL_KEYS } from '../vocabulary/profiles.ts';
import { paginatorB } from './envelopes.ts';
import { cursorQuery, integer, isoDateTime, pageQuery, perPageQuery } from './fields.ts';
import { memberSummarySchema } from './members.ts';
import { defineOperation, errorOutcome } from './operation.ts';
import {
  INVALID,
  INVALID_USERNAME,
  NOT_ACTIVE,
  profileSchema,
  SCORES_DESCRIPTION,
  TAGS,
  USER_NOT_FOUND,
  usernameParams,
} from './profile-schemas.ts';

const PROFILE_DESCRIPTION =
  '`email`, `first_name`, `last_name`, `can_change_username` and `can_change_email` are null unless the caller ' +
  'is the owner or a community moderator. `profile_navs` lists the profile’s sections with client routes; ' +
  `\`profile_nav_actions\` is empty. Timestamps are ISO 8601 \`YYYY-MM-DDTHH:MM:SS\` in UTC. ${SCORES_DESCRIPTION}`;

export const getProfile = defineOperation({
  operationId: 'getProfile',
  summary: 'A member’s profile',
  description: PROFILE_DESCRIPTION,
  tags: TAGS,
  params: usernameParams,
  response: v.object({ profile: profileSchema }),
  errors: [INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});

export const getMyProfile = defineOperation({
  operationId: 'getMyProfile',
  summary: 'The caller’s own profile',
  description: `The same \`profile\` object as \`GET /profile/{username}\` for the caller, owner fields included. ${PROFILE_DESCRIPTION}`,
  tags: TAGS,
  response: v.object({ profile: profileSchema }),
  errors: [],
});

const line = (max: number) => v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`));
const url = () => line(2048);

export const updateMyProfile = defineOperation({
  operationId: 'updateMyProfile',
  summary: 'Update the caller’s own profile',
  description:
    'Every field is optional; only the given ones change. `bio` is stored as the profile’s `short_description` ' +
    'and rendered into `short_description_rendered`. `website`, `avatar`, `cover_photo` and each social link must ' +
    'be an absolute `http`/`https` URL or empty (empty clears it; an empty social link removes it): otherwise 400 ' +
    '`invalid_url` with `data.field` (`website`, `avatar`, `cover_photo` or `social_links.<key>`). Social keys: ' +
    `${PROFILE_SOCIAL_KEYS.map((key) => `\`${key}\``).join(', ')}; others are 400 \`rest_invalid_param\`; ` +
    '`social_links` merges into the stored links. A blank `display_name` falls back to the username. Nothing ' +
    'changes on any error.',
  tags: TAGS,
  body: v.strictObject({
    display_name: v.optional(line(250)),
    first_name: v.optional(line(100)),
    last_name: v.optional(line(100)),
    bio: v.optional(
      v.pipe(
        v.string(),
        v.check(
          (value) => Buffer.byteLength(value, 'utf8') <= BIO_MAX_BYTES,
          `must be at most ${BIO_MAX_BYTES} bytes`,
        ),
      ),
    ),
    location: v.optional(line(250)),
    website: v.optional(url()),
    avatar: v.optional(url()),
    cover_photo: v.optional(url()),
    social_links: v.optional(
      v.strictObject(
        Object.fromEntries(PROFILE_SOCIAL_KEYS.map((key) => [key, v.optional(url())])) as Record<
          (typeof PROFILE_SOCIAL_KEYS)[number],
          v.OptionalSchema<ReturnType<typeof url>, undefined>
        >,
      ),
    ),
  }),
  response: v.object({
    message: v.string(),
    data: v.object({ id: integer(), display_name: v.string(), bio: v.string(), updated_at: isoDateTime() }),
  }),
  errors: [
    INVALID,
    {
      status: 400,
      code: 'invalid_url',
      description: 'A URL field is not an absolute http(s) URL; `data.field` names it.',
    },
  ],
});

// ---- Follows -----------------------------------------------------------------------------------------------------

const followResponse = v.object({
  message: v.string(),
  data: v.object({ user_id: integer(), following: v.boolean(), followers_count: integer() }),
});
const CANNOT_FOLLOW_SELF = errorOutcome(
  400,
  'rest_invalid_param',
  'The member is the caller (you cannot follow yourself); `data.params.username`.',
);

export const followMember = defineOperation({
  operationId: 'followMember',
  summary: 'Follow a member',
  description:
    'Idempotent: following twice is one follow, answered the same (200 both times). A new follow notifies the ' +
    'followed member (`new_follower`). `followers_count` and `followings_count` move in the same transaction as ' +
    'the follow, so they are exact under any concurrency; the answer carries the followed member’s count.',
  tags: TAGS,
  params: usernameParams,
  response: followResponse,
  errors: [CANNOT_FOLLOW_SELF, INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});

export const unfollowMember = defineOperation({
  operationId: 'unfollowMember',
  summary: 'Stop following a member',
  description:
    'Idempotent: not following is answered the same. The answer carries the member’s `followers_count`.',
  tags: TAGS,
  params: usernameParams,
  response: followResponse,
  errors: [CANNOT_FOLLOW_SELF, INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});

const followList = (which: string) => ({
  summary: `A member’s ${which} (paginator B of member summaries)`,
  description:
    `Member summaries in user-id order; \`total\` is the profile’s ${which === 'followers' ? '`followers_count`' : '`followings_count`'}. ` +
    '`next_page_url` carries an opaque `cursor`: following it costs one page.',
  tags: TAGS,
  params: usernameParams,
  query: v.object({ page: pageQuery(), per_page: perPageQuery(20), cursor: cursorQuery() }),
  errors: [INVALID, INVALID_USERNAME, NOT_ACTIVE, USER_NOT_FOUND],
});

export const listFollowers = defineOperation({
  operationId: 'listFollowers',
  ...followList('followers'),
  response: v.object({ followers: paginatorB(memberSummarySchema) }),
});

export const listFollowings = defineOperation({
  operationId: 'listFollowings',
  ...followList('followings'),
  response: v.object({ followings: paginatorB(memberSummarySchema) }),
});
