import * as v from 'valibot';
import { integer, sqlDateTime } from './fields.ts';
import { documentedAs, named } from './openapi-metadata.ts';
import { defineOperation } from './operation.ts';
import { hostUserSummarySchema, memberTimestampEntries } from './members.ts';
import { spaceLinkSchema, spaceSettingsEntries, spaceSummaryEntries } from './space-fields.ts';

/**
 * Invitations of e-mail addresses into spaces (contract "Invitations", decisions.md). The invitation's own
 * timestamps are `YYYY-MM-DD HH:MM:SS` UTC; its `space` and `xprofile` are summaries, ISO 8601 as everywhere.
 */
const TAGS = ['Invitations'];
const yesNo = v.picklist(['yes', 'no']);

/** Space settings as the invitation answers them: the space keys plus the invitation-only ones. */
const invitationSpaceSettingsSchema = v.object({
  ...spaceSettingsEntries(yesNo, spaceLinkSchema),
  default_comment_sort_by: v.string(),
  default_post_sort_by: v.string(),
  disable_layout_style: yesNo,
  disable_post_sort_by: yesNo,
  document_access: v.string(),
  document_library: yesNo,
  document_upload: v.string(),
  media_access: v.string(),
  media_gallery: yesNo,
  onboard_redirect_url: v.string(),
  show_paywalls: yesNo,
});

const invitationSpaceSchema = v.pipe(
  v.object({
    ...spaceSummaryEntries,
    settings: invitationSpaceSettingsSchema,
  }),
  named('InvitationSpace'),
);

const socialLinks = v.object({
  twitter: v.string(),
  youtube: v.string(),
  linkedin: v.string(),
  fb: v.string(),
  instagram: v.string(),
});

export const invitationSchema = v.pipe(
  v.object({
    id: integer(),
    user_id: v.pipe(integer(), v.description('The inviter.')),
    post_id: v.pipe(integer(), v.description('The space.')),
    created_at: sqlDateTime(),
    updated_at: sqlDateTime(),
    message: v.pipe(v.string(), v.description('The invited e-mail address.')),
    message_rendered: v.string(),
    meta: v.object({ invitee_name: v.string() }),
    reactions_count: v.pipe(integer(), v.description('E-mails sent for this invitation.')),
    space: invitationSpaceSchema,
    status: v.picklist(['pending', 'accepted']),
    type: v.literal('invitation'),
    user: hostUserSummarySchema,
    xprofile: v.object({
      avatar: v.string(),
      badge: v.pipe(
        v.null(),
        documentedAs({ type: ['object', 'null'], additionalProperties: true, description: 'Always null.' }),
      ),
      created_at: memberTimestampEntries.created_at,
      display_name: v.string(),
      id: integer(),
      is_verified: integer(),
      last_activity: memberTimestampEntries.last_activity,
      meta: v.object({
        website: v.string(),
        cover_photo: v.string(),
        social_links: socialLinks,
        badge_slug: v.array(v.string()),
      }),
      permalink: v.string(),
      short_description: v.string(),
      status: v.string(),
      total_points: integer(),
      updated_at: memberTimestampEntries.updated_at,
      user_id: integer(),
      username: v.string(),
    }),
  }),
  named('Invitation'),
);

/**
 * `invitee_name` goes verbatim into the invitation e-mail, which reads as the platform's own words: so it is one
 * short line (no line breaks, control characters or bidirectional overrides, which could lay out a message of
 * its own) with nothing a mail client makes into a link: no scheme (`https://`, `mailto:`), no `www.`, no dotted
 * name such as `evil.example` or `a@b.co` (a dot between a character and two letters; `J. R. R.` and `Dr. No`
 * pass).
 */
const INVITEE_NAME_MAX = 100;
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;
const WEB_ADDRESS = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:|[^\s.]\.\p{L}{2}/iu;

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;

export const createInvitation = defineOperation({
  operationId: 'createInvitation',
  summary: 'Invite an e-mail address into a space',
  description:
    "Needs `community_moderator` in the space (global admins and moderators, the space's admins and " +
    'moderators); others get 403 `rest_forbidden` whatever the space id. The invitation e-mail is sent through ' +
    'SES before the answer; it holds the acceptance link `<base url>/invitations/<token>/accept` with a ' +
    'single-use token (only its hash is stored). If sending fails nothing is stored and the answer is 502 ' +
    '`email_failed`: a retry sends afresh. Two identical requests at once send one e-mail and store one ' +
    'invitation (the other answers 409 `already_invited`). An existing account of the address gets a ' +
    '`space_invite` notification (in-app: its e-mail is the invitation). No rate limit or daily cap.',
  tags: TAGS,
  body: v.strictObject({
    space_id: v.pipe(
      v.union(
        [
          v.pipe(v.string(), v.regex(/^\d{1,16}$/, 'must be a space id')),
          v.pipe(v.number(), v.integer(), v.minValue(1)),
        ],
        'must be a space id',
      ),
      v.transform(Number),
      v.minValue(1, 'must be a space id'),
      v.maxValue(Number.MAX_SAFE_INTEGER, 'must be a space id'),
    ),
    email: v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.maxLength(254, 'must be a valid e-mail address'),
      v.regex(EMAIL_PATTERN, 'must be a valid e-mail address'),
    ),
    invitee_name: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.trim(),
        v.maxLength(INVITEE_NAME_MAX, `must be at most ${INVITEE_NAME_MAX} characters`),
        v.check((name) => !NOT_ONE_LINE.test(name), 'must be one line of text'),
        v.check((name) => !WEB_ADDRESS.test(name), 'must not contain a web or e-mail address'),
        v.description(
          `The invited person's name, greeted by it in the e-mail: one line of at most ${INVITEE_NAME_MAX} ` +
            'characters, without web or e-mail addresses (nothing a mail client would turn into a link).',
        ),
      ),
    ),
  }),
  response: v.object({ invitation: invitationSchema, message: v.string() }),
  successStatus: 201,
  errors: [
    {
      status: 403,
      code: 'rest_forbidden',
      description: 'The caller is not `community_moderator` in the space.',
    },
    { status: 404, code: 'not_found', description: 'No space has this id.' },
    {
      status: 409,
      code: 'already_member',
      description: 'The address belongs to an account with a membership of the space. Nothing is sent.',
    },
    {
      status: 409,
      code: 'already_invited',
      description: 'The caller already invited this address to this space (any status). Nothing is sent.',
    },
    {
      status: 502,
      code: 'email_failed',
      description: 'The invitation e-mail could not be sent. Nothing is stored; the request may be retried.',
    },
  ],
});

export const acceptInvitation = defineOperation({
  operationId: 'acceptInvitation',
  summary: 'Accept an invitation (the invited account)',
  description:
    'By the signed-in account whose e-mail is the invited address: it joins the space (a course: as a student), ' +
    "the invitation turns `accepted` and the space's admins and moderators get `space_join`. The token works " +
    'once. Refusals change nothing.',
  tags: TAGS,
  params: v.object({
    token: v.pipe(v.string(), v.minLength(1), v.maxLength(200, 'must be an invitation token')),
  }),
  response: v.object({
    message: v.string(),
    space_id: integer(),
    status: v.literal('accepted'),
  }),
  errors: [
    {
      status: 403,
      code: 'rest_forbidden',
      description: "The invitation was sent to another e-mail address than the caller's.",
    },
    {
      status: 404,
      code: 'invitation_not_found',
      description: 'No pending invitation has this token (unknown, or already used).',
    },
    { status: 404, code: 'not_found', description: 'The space of the invitation no longer exists.' },
  ],
});
