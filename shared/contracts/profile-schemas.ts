/** Fields, shared schemas and documented errors of the profile contracts (profiles.ts, profile-lists.ts). */
import * as v from 'valibot';
import { integer } from './fields.ts';
import { memberTimestampEntries } from './members.ts';
import { named } from './openapi-metadata.ts';
import { USERNAME_MAX_LENGTH } from '../vocabulary/profiles.ts';
import { errorOutcome } from './operation.ts';

export const TAGS = ['Profiles'];

/** The path `username` is checked by the use case, so a malformed one is `invalid_username`, not a param error. */
export const usernameParams = v.object({
  username: v.pipe(
    v.string(),
    v.description(
      `Matched case-insensitively. Characters outside \`[A-Za-z0-9_-]\` or more than ${USERNAME_MAX_LENGTH}: 400 \`invalid_username\`.`,
    ),
  ),
});

export const INVALID = errorOutcome(
  400,
  'rest_invalid_param',
  'A parameter is malformed, out of range or unknown; `data.params` names it.',
);
export const INVALID_USERNAME = errorOutcome(
  400,
  'invalid_username',
  `The username holds characters outside \`[A-Za-z0-9_-]\` or is longer than ${USERNAME_MAX_LENGTH}.`,
);
export const USER_NOT_FOUND = errorOutcome(404, 'user_not_found', 'No user has this username.');
export const NOT_ACTIVE = errorOutcome(
  403,
  'rest_forbidden',
  'The profile is not active ("This profile is not active."); community moderators still read it.',
);

/** The scores' rules, stated once for every operation that shows them (README "Profile scores"). */
export const SCORES_DESCRIPTION =
  '`total_points` is maintained on write: 5 points per published feed and 2 per published comment on a feed the ' +
  'member authored, moved in the same transaction as the content (deleting it takes them back); no read counts. ' +
  '`compilation_score` is how complete the profile is, 0..100 in steps of 10, one step each for a display name ' +
  'other than the username, first name, last name, bio, avatar, cover photo, website, location, a social link ' +
  'and a verified profile.';

const privateString = (what: string) =>
  v.pipe(
    v.nullable(v.string()),
    v.description(`${what}; null unless the caller is the owner or a community moderator.`),
  );
const privateBoolean = (what: string) =>
  v.pipe(
    v.nullable(v.boolean()),
    v.description(`${what}; null unless the caller is the owner or a community moderator.`),
  );

export const profileSchema = v.pipe(
  v.object({
    user_id: integer(),
    username: v.string(),
    display_name: v.string(),
    first_name: privateString('First name'),
    last_name: privateString('Last name'),
    email: privateString('E-mail address'),
    avatar: v.string(),
    cover_photo: v.string(),
    short_description: v.pipe(v.string(), v.description('The bio (Markdown).')),
    short_description_rendered: v.pipe(v.string(), v.description('The bio as sanitized HTML.')),
    location: v.string(),
    website: v.string(),
    social_links: v.pipe(v.record(v.string(), v.string()), v.description('Network → URL.')),
    status: v.picklist(['active', 'suspended', 'banned']),
    is_verified: integer(),
    badge_slugs: v.array(v.string()),
    total_points: integer(),
    compilation_score: integer(),
    followers_count: integer(),
    followings_count: integer(),
    created_at: memberTimestampEntries.created_at,
    last_activity: memberTimestampEntries.last_activity,
    can_change_username: privateBoolean('Always false when shown (usernames are fixed)'),
    can_change_email: privateBoolean('Always false when shown (no e-mail change through the API)'),
    canViewUserSpaces: v.pipe(
      v.boolean(),
      v.description('Whether the caller may list this member’s spaces under `user_space_visibility`.'),
    ),
    profile_navs: v.array(
      v.object({
        slug: v.string(),
        title: v.string(),
        url: v.string(),
        route: v.object({ name: v.string() }),
      }),
    ),
    profile_nav_actions: v.array(v.never()),
  }),
  named('Profile'),
);
