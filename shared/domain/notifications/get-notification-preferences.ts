import type { Caller } from '../auth/caller.ts';
import { findNotificationPreferences } from './notification-preferences.ts';

export async function getNotificationPreferences(caller: Caller) {
  return { data: await findNotificationPreferences(caller.id) };
}
