import * as v from 'valibot';
import { GENERAL_SETTING_FIELDS } from '../../vocabulary/general-settings.ts';

/**
 * The operator-settable groups and the type of each key. General keys are the contract's General settings
 * (GENERAL_SETTING_FIELDS, shared with the contract), stricter where an operator's value is checked (`access` takes
 * no other key, `site_title` and `slug` have limits), plus `users_can_register` and `user_registration_enable_url`,
 * which GET /admin/general answers beside `settings` from the same group.
 */
export const GENERAL_SETTING_SCHEMAS = {
  ...GENERAL_SETTING_FIELDS,
  access: v.strictObject({ acess_level: v.string() }),
  site_title: v.pipe(v.string(), v.maxLength(200)),
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,100}$/, 'must be lower-case a-z, 0-9 and -')),
  users_can_register: v.boolean(),
  user_registration_enable_url: v.string(),
} as const;

export const PRIVACY_SETTING_SCHEMAS = {
  user_space_visibility: v.picklist(['everybody', 'logged_in', 'admin_only']),
} as const;

/**
 * The `features` group: switches no route sets, only the operator (`settings:set features.<key>`).
 * `content_moderation`: lesson comments of people who cannot moderate wait as `pending` (courses domain).
 */
export const FEATURE_SETTING_SCHEMAS = {
  content_moderation: v.picklist(['yes', 'no']),
} as const;

export type GeneralSettingKey = keyof typeof GENERAL_SETTING_SCHEMAS;
/** The general group as readers see it: every key, typed. */
export const GeneralSettingsSchema = v.object(GENERAL_SETTING_SCHEMAS);
export type GeneralSettings = v.InferOutput<typeof GeneralSettingsSchema>;
export type PrivacySettingKey = keyof typeof PRIVACY_SETTING_SCHEMAS;
