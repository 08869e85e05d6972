import * as v from 'valibot';
import { named } from './openapi-metadata.ts';
import { defineOperation } from './operation.ts';

/**
 * Portal-wide general settings (contract "General settings"). The misspelled keys `acess_level` and
 * `cutsom_auth_url` are the contract's own spellings and must stay so. Operators set the values with
 * `settings:set` (operator-cli.md); unset keys answer their defaults.
 */
const yesNo = () => v.picklist(['yes', 'no']);

export const generalSettingsSchema = v.pipe(
  v.object({
    access: v.object({ acess_level: v.string() }),
    auth_content: v.string(),
    auth_form_type: v.string(),
    auth_redirect: v.string(),
    auth_url: v.string(),
    custom_signup_url: v.string(),
    cutsom_auth_url: v.string(),
    disable_global_posts: yesNo(),
    explicit_registration: yesNo(),
    featured_image: v.string(),
    is_slug_defined: v.boolean(),
    logo: v.string(),
    logo_permalink: v.string(),
    logo_permalink_type: v.string(),
    notice_html: v.string(),
    restricted_role_content: v.string(),
    site_title: v.string(),
    slug: v.string(),
    use_custom_signup_page: yesNo(),
    white_logo: v.string(),
  }),
  named('GeneralSettings'),
);

export const getGeneralSettings = defineOperation({
  operationId: 'getGeneralSettings',
  summary: 'Portal-wide general settings (community admins, host super admins)',
  description:
    'Every general setting, defaults included (`access.acess_level` defaults to `public`, `disable_global_posts` ' +
    'to `no`, `slug` to `portal`). `user_roles` maps each host role to its label, without `administrator` ' +
    '(administrators always have access). `users_can_register` mirrors the host option and ' +
    '`user_registration_enable_url` is where it is enabled; both are set by operators like the other keys.',
  tags: ['Settings'],
  response: v.object({
    settings: generalSettingsSchema,
    user_registration_enable_url: v.string(),
    user_roles: v.record(v.string(), v.string()),
    users_can_register: v.boolean(),
  }),
  errors: [
    {
      status: 403,
      code: 'rest_forbidden',
      description: 'The caller is neither a community admin nor a host super admin.',
    },
  ],
});
