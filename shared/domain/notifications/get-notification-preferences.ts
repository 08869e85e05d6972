import type { Caller } from '../auth/index.ts';
import { findNotificationPreferences } from './notification-preferences-repository.ts';

export async function getNotificationPreferences(caller: Caller) {
  return { data: await findNotificationPreferences(caller.id) };
}
