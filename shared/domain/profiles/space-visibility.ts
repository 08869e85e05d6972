import type { KeyedRead } from '../../db/read-together.ts';
import type { SpaceVisibility } from '../auth/index.ts';
import { getSettings, PRIVACY_SETTINGS_DEFAULTS, settingsRead } from '../settings/index.ts';

/** The site's `user_space_visibility` privacy setting (default `everybody`): one GetItem of the privacy group. */
export async function userSpaceVisibility(): Promise<SpaceVisibility> {
  return spaceVisibilityOf(await getSettings('privacy', PRIVACY_SETTINGS_DEFAULTS));
}

/** `userSpaceVisibility` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export function userSpaceVisibilityRead(): KeyedRead<SpaceVisibility> {
  const read = settingsRead('privacy', PRIVACY_SETTINGS_DEFAULTS);
  return { ...read, settle: async (found) => spaceVisibilityOf(await read.settle(found)) };
}

function spaceVisibilityOf(privacy: Record<string, unknown>): SpaceVisibility {
  const value = privacy.user_space_visibility;
  return value === 'logged_in' || value === 'admin_only' ? value : 'everybody';
}
