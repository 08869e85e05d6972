import { invalidParams } from '../../errors/app-error.ts';
import { mergeNotificationPreferences } from './notification-preferences-repository.ts';
import { verifyUnsubscribeToken } from './unsubscribe-token.ts';

/** The digest e-mail's unsubscribe link: sets the member's digest to `never` (no login needed; the token is the proof). */
export async function unsubscribeFromDigest(token: string) {
  const userId = await verifyUnsubscribeToken(token);
  if (userId === undefined) throw invalidParams({ token: 'is not a valid unsubscribe token' });
  await mergeNotificationPreferences(userId, { digest_frequency: 'never' });
  return {
    message: 'You will no longer receive digest e-mails.',
    data: { digest_frequency: 'never' as const },
  };
}
