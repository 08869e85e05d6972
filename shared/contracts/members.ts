import * as v from 'valibot';
import { integer, isoDateTime, sqlDateTime } from './fields.ts';
import { documentedAs, named } from './openapi-metadata.ts';

/**
 * A member's timestamps, ISO 8601 `YYYY-MM-DDTHH:MM:SS` UTC in every response that shows them (a profile, every
 * `xprofile`).
 */
export const memberTimestampEntries = {
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
  last_activity: isoDateTime(),
};

/** The member summary (`xprofile`) used in notification lists and quiz results. */
export const memberSummarySchema = v.pipe(
  v.object({
    user_id: integer(),
    total_points: integer(),
    is_verified: integer(),
    status: v.string(),
    display_name: v.string(),
    username: v.string(),
    avatar: v.string(),
    created_at: memberTimestampEntries.created_at,
    short_description: v.string(),
    meta: v.object({
      website: v.string(),
      cover_photo: v.string(),
      social_links: v.object({
        twitter: v.string(),
        youtube: v.string(),
        linkedin: v.string(),
        fb: v.string(),
        instagram: v.string(),
      }),
      badge_slug: v.array(v.string()),
    }),
    // The contract types `badge` as nullable; this service has no featured badges yet, so it is always null. The
    // document still says "nullable object": a schema that only allows null makes generated clients drop the field.
    badge: v.pipe(
      v.null(),
      documentedAs({
        type: ['object', 'null'],
        additionalProperties: true,
        description: "The member's featured badge, or null. Currently always null (no featured badges yet).",
      }),
    ),
  }),
  named('MemberSummary'),
);

/** A host user's id, name and photo, and the e-mail address only some callers see (`who` says which). */
export const hostUserCardEntries = (who: string) => ({
  ID: integer(),
  display_name: v.string(),
  photo: v.string(),
  user_email: v.pipe(v.nullable(v.string()), v.description(`Only for ${who}; null for everyone else.`)),
});

/** The host user summary: a course's `owner`, an invitation's inviter (`user`). */
export const hostUserSummarySchema = v.pipe(
  v.object({
    ...hostUserCardEntries('callers holding the host `list_users` capability'),
    user_login: v.string(),
    user_nicename: v.string(),
    user_registered: sqlDateTime(),
    user_status: v.string(),
    user_url: v.string(),
  }),
  named('HostUserSummary'),
);
