import * as v from 'valibot';

/**
 * The keys of the contract's General settings (`GET /admin/general` → `settings`) and the type of each, the one
 * list the contract's response and the settings domain's stored group build on. The misspelled keys `acess_level`
 * and `cutsom_auth_url` are the contract's own spellings and must stay so; yes/no switches stay the strings
 * `yes`/`no`, as the original platform stores them.
 */
const yesNo = v.picklist(['yes', 'no']);

export const GENERAL_SETTING_FIELDS = {
  access: v.object({ acess_level: v.string() }),
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
  site_title: v.string(),
  slug: v.string(),
  use_custom_signup_page: yesNo,
  white_logo: v.string(),
} as const;
