import { toIsoDateTime } from '../dates.ts';
import {
  DEFAULT_SPACE_SETTINGS,
  type MembershipItem,
  type SpaceItem,
  type SpaceSettings,
  type SpaceSummary,
  toSpaceSummary,
} from '../spaces/index.ts';

/** The contract's space `settings` keys (community-api.md "Space"; `show_fetured_image` spelled so). */
const SETTINGS_KEYS = [
  'can_request_join',
  'custom_lock_screen',
  'emoji',
  'hide_members_count',
  'layout_style',
  'links',
  'members_page_status',
  'og_image',
  'restricted_post_only',
  'shape_svg',
  'show_fetured_image',
  'show_sidebar',
  'topic_required',
] as const;

export interface ProfileSpaceLink {
  slug: string;
  title: string;
  emoji: string;
  enabled: string;
  new_tab: string;
  permalink: string;
}

type SettingsKey = (typeof SETTINGS_KEYS)[number];
export type ProfileSpaceSettings = Omit<Pick<SpaceSettings, SettingsKey>, 'links'> & {
  links: ProfileSpaceLink[];
};

export interface ProfileSpaceResponse extends SpaceSummary {
  settings: ProfileSpaceSettings;
  members_count: number;
  pivot: { created_at: string; role: string; space_id: number; status: string; user_id: number };
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

/** A link of the profile list carries every key (`emoji`, `enabled`, `new_tab`, `permalink` defaulted). */
function toLink(raw: unknown): ProfileSpaceLink {
  const link = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    slug: text(link.slug, ''),
    title: text(link.title, ''),
    emoji: text(link.emoji, ''),
    enabled: text(link.enabled, 'yes'),
    new_tab: text(link.new_tab, 'no'),
    permalink: text(link.permalink, ''),
  };
}

export function toProfileSpace(
  space: SpaceItem,
  membership: MembershipItem,
  membersCount: number,
): ProfileSpaceResponse {
  const stored = space.settings;
  const settings: Record<string, unknown> = {};
  // Stored settings are the defaults' types (the import and migrations check them); absent keys take defaults.
  for (const key of SETTINGS_KEYS) settings[key] = stored[key] ?? DEFAULT_SPACE_SETTINGS[key];
  const links = Array.isArray(stored.links) ? stored.links.map(toLink) : [];
  return {
    ...toSpaceSummary(space),
    settings: { ...(settings as Omit<ProfileSpaceSettings, 'links'>), links },
    members_count: membersCount,
    pivot: {
      created_at: toIsoDateTime(membership.created_at),
      role: membership.role,
      space_id: space.id,
      status: membership.status,
      user_id: membership.user_id,
    },
  };
}
