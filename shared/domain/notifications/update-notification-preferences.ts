import type { Caller } from '../auth/index.ts';
import type { PreferencesChange } from './notification-preferences.ts';
import { mergeNotificationPreferences } from './notification-preferences-repository.ts';

/** decisions.md: PUT merges the keys given and answers the full preferences now in force. */
export async function updateNotificationPreferences(caller: Caller, change: PreferencesChange) {
  const data = await mergeNotificationPreferences(caller.id, change);
  return { message: 'Notification preferences updated successfully.', data };
}
