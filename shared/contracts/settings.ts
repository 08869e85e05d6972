import * as v from 'valibot';
import { GENERAL_SETTING_FIELDS } from '../vocabulary/general-settings.ts';
import { named } from './openapi-metadata.ts';
import { defineOperation } from './operation.ts';

/**
 * Portal-wide general settings (contract "General settings"). The misspelled keys `acess_level` and
 * `cutsom_auth_url` are the contract's own spellings and must stay so. Operators set the values with
 * `settings:set` (operator-cli.md); unset keys answer their defaults.
 */
export const generalSettingsSchema = v.pipe(v.object(GENERAL_SETTING_FIELDS), named('GeneralSettings'));

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
