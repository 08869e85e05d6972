import type { ItemKey } from '../partition.ts';

export type SettingsGroup = 'general' | 'privacy' | 'topics_config' | 'features';
export const settingsKey = (group: SettingsGroup): ItemKey => ({ pk: 'SETTINGS', sk: group.toUpperCase() });
