/** A space's `settings` as the contract shapes them, and the defaults a new space starts from. */

export interface SpaceLink {
  slug: string;
  title: string;
  emoji?: string;
  enabled?: 'yes' | 'no';
  new_tab?: 'yes' | 'no';
  permalink?: string;
}

/**
 * The contract's space `settings` keys (`show_fetured_image` is spelled so by the contract) plus the keys the
 * invitation response also carries. Switches are `yes`/`no` strings, as on the original platform.
 */
export interface SpaceSettings {
  can_request_join: 'yes' | 'no';
  custom_lock_screen: 'yes' | 'no';
  emoji: string;
  hide_members_count: 'yes' | 'no';
  layout_style: string;
  links: SpaceLink[];
  members_page_status: string;
  og_image: string;
  restricted_post_only: 'yes' | 'no';
  shape_svg: string;
  show_fetured_image: 'yes' | 'no';
  show_sidebar: 'yes' | 'no';
  topic_required: 'yes' | 'no';
  default_comment_sort_by: string;
  default_post_sort_by: string;
  disable_layout_style: 'yes' | 'no';
  disable_post_sort_by: 'yes' | 'no';
  document_access: string;
  document_library: 'yes' | 'no';
  document_upload: string;
  media_access: string;
  media_gallery: 'yes' | 'no';
  onboard_redirect_url: string;
  show_paywalls: 'yes' | 'no';
}

export const DEFAULT_SPACE_SETTINGS: SpaceSettings = {
  can_request_join: 'no',
  custom_lock_screen: 'no',
  emoji: '',
  hide_members_count: 'no',
  layout_style: 'timeline',
  links: [],
  members_page_status: 'members_only',
  og_image: '',
  restricted_post_only: 'no',
  shape_svg: '',
  show_fetured_image: 'yes',
  show_sidebar: 'yes',
  topic_required: 'no',
  default_comment_sort_by: 'oldest',
  default_post_sort_by: 'latest',
  disable_layout_style: 'no',
  disable_post_sort_by: 'no',
  document_access: 'members_only',
  document_library: 'no',
  document_upload: 'admin_only',
  media_access: 'members_only',
  media_gallery: 'no',
  onboard_redirect_url: '',
  show_paywalls: 'no',
};
