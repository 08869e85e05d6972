import * as v from 'valibot';
import { forbidden } from '../../errors/app-error.ts';
import { HOST_ROLE_LABELS } from '../../vocabulary/roles.ts';
import { type Caller, canReadGeneralSettings } from '../auth/index.ts';
import { GENERAL_SETTINGS_DEFAULTS } from './settings-defaults.ts';
import { getSettings } from './settings-groups.ts';
import { type GeneralSettings, GeneralSettingsSchema } from './settings-schemas.ts';

export interface GeneralSettingsView {
  /** Every general key except the two answered beside it. */
  settings: Omit<GeneralSettings, 'users_can_register' | 'user_registration_enable_url'>;
  user_registration_enable_url: string;
  user_roles: Record<string, string>;
  users_can_register: boolean;
}

/**
 * `GET /admin/general`: community admins and host super admins only. Every key of the general group, what
 * operators set merged over the defaults; `user_roles` lists the host roles except `administrator`, because
 * administrators always have access.
 */
export async function showGeneralSettings(caller: Caller): Promise<GeneralSettingsView> {
  if (!canReadGeneralSettings(caller)) throw forbidden();
  // Values were checked by key when set (settings:set), so this parse only fails on a hand-edited item.
  const stored = v.parse(GeneralSettingsSchema, await getSettings('general', GENERAL_SETTINGS_DEFAULTS));
  const { users_can_register, user_registration_enable_url, ...settings } = stored;
  return {
    settings,
    user_registration_enable_url,
    user_roles: Object.fromEntries(
      Object.entries(HOST_ROLE_LABELS).filter(([role]) => role !== 'administrator'),
    ),
    users_can_register,
  };
}
