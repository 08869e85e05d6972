import type { ItemKey } from '../partition.ts';

export const SETTINGS_GROUPS = ['general', 'privacy', 'topics_config', 'features'] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];
/** The logical key of a settings group; its copies are derived by shared/db/replicated-item.ts. */
export const settingsKey = (group: SettingsGroup): ItemKey => ({ pk: 'SETTINGS', sk: group.toUpperCase() });
