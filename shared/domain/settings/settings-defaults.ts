import type { GeneralSettings, PrivacySettingKey } from './settings-schemas.ts';

/** What a setting is while nobody has set it: readers merge the stored group over these. */
export const GENERAL_SETTINGS_DEFAULTS: GeneralSettings = {
  access: { acess_level: 'public' },
  auth_content: '',
  auth_form_type: 'default',
  auth_redirect: '',
  auth_url: '',
  custom_signup_url: '',
  cutsom_auth_url: '',
  disable_global_posts: 'no',
  explicit_registration: 'no',
  featured_image: '',
  is_slug_defined: false,
  logo: '',
  logo_permalink: '',
  logo_permalink_type: 'default',
  notice_html: '',
  restricted_role_content: '',
  site_title: 'Community',
  slug: 'portal',
  use_custom_signup_page: 'no',
  white_logo: '',
  users_can_register: false,
  user_registration_enable_url: '',
};

/** decisions.md: `user_space_visibility` defaults to `everybody`. */
export const PRIVACY_SETTINGS_DEFAULTS: Record<PrivacySettingKey, unknown> = {
  user_space_visibility: 'everybody',
};
