import type { SpaceVisibility } from '../auth/index.ts';
import { getSettings, PRIVACY_SETTINGS_DEFAULTS } from '../settings/index.ts';

/** The site's `user_space_visibility` privacy setting (default `everybody`): one GetItem of the privacy group. */
export async function userSpaceVisibility(): Promise<SpaceVisibility> {
  const privacy = await getSettings('privacy', PRIVACY_SETTINGS_DEFAULTS);
  const value = privacy.user_space_visibility;
  return value === 'logged_in' || value === 'admin_only' ? value : 'everybody';
}
