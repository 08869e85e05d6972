import * as v from 'valibot';
import { SPACE_LINK_FIELDS, SPACE_PRIVACIES, SPACE_STATUSES, SPACE_TYPES } from '../vocabulary/spaces.ts';
import { integer, isoDateTime } from './fields.ts';

/** A link of a space's (or a course's) menu, as its settings answer it; switches are `yes`/`no`. */
export const spaceLinkSchema = v.object(SPACE_LINK_FIELDS);

/**
 * The settings keys every space's `settings` answers (a profile's space, an invitation's space); `flag` is how that
 * shape types a `yes`/`no` switch and `link` a menu link.
 */
export const spaceSettingsEntries = <F extends v.GenericSchema, L extends v.GenericSchema>(
  flag: F,
  link: L,
) => ({
  can_request_join: flag,
  custom_lock_screen: flag,
  emoji: v.string(),
  hide_members_count: flag,
  layout_style: v.string(),
  links: v.array(link),
  members_page_status: v.string(),
  og_image: v.string(),
  restricted_post_only: flag,
  shape_svg: v.string(),
  show_fetured_image: flag,
  show_sidebar: flag,
  topic_required: flag,
});

/**
 * The fields every space shape shares (a profile's space, an invitation's space, a course read), without dates:
 * space summaries spread `spaceSummaryEntries`; a course's administrative form adds its own.
 */
export const spaceCoreEntries = {
  id: integer(),
  title: v.string(),
  slug: v.string(),
  description: v.string(),
  logo: v.string(),
  cover_photo: v.string(),
  created_by: integer(),
  parent_id: v.nullable(integer()),
  privacy: v.picklist(SPACE_PRIVACIES),
  serial: integer(),
  status: v.picklist(SPACE_STATUSES),
  type: v.picklist(SPACE_TYPES),
};

/**
 * A space summary (the profile's space list, an invitation's `space`): the core fields and the timestamps, ISO 8601
 * `YYYY-MM-DDTHH:MM:SS` UTC in every response that carries one.
 */
export const spaceSummaryEntries = {
  ...spaceCoreEntries,
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
};
