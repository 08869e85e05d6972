/** The settings domain's public surface: what other domains may use (README, import rules). */
export { GENERAL_SETTINGS_DEFAULTS, PRIVACY_SETTINGS_DEFAULTS } from './settings-defaults.ts';
export type { GeneralSettingKey, PrivacySettingKey } from './settings-schemas.ts';
export { getSettings, putSetting, putSettings, settingsRead } from './settings-groups.ts';
