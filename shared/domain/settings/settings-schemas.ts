import * as v from 'valibot';

/**
 * The operator-settable groups and the type of each key. General keys are the contract's General settings
 * `settings` object (misspellings `acess_level` and `cutsom_auth_url` are the contract's) plus
 * `users_can_register` and `user_registration_enable_url`, which GET /admin/general answers beside `settings` from
 * the same group. Yes/no switches stay the strings
 * `yes`/`no`, as the original platform stores them.
 */
const yesNo = v.picklist(['yes', 'no']);

export const GENERAL_SETTING_SCHEMAS = {
  access: v.strictObject({ acess_level: v.string() }),
  auth_content: v.string(),
  auth_form_type: v.string(),
  auth_redirect: v.string(),
  auth_url: v.string(),
  custom_signup_url: v.string(),
  cutsom_auth_url: v.string(),
  disable_global_posts: yesNo,
  explicit_registration: yesNo,
  featured_image: v.string(),
  is_slug_defined: v.boolean(),
  logo: v.string(),
  logo_permalink: v.string(),
  logo_permalink_type: v.string(),
  notice_html: v.string(),
  restricted_role_content: v.string(),
  site_title: v.pipe(v.string(), v.maxLength(200)),
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,100}$/, 'must be lower-case a-z, 0-9 and -')),
  use_custom_signup_page: yesNo,
  white_logo: v.string(),
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
