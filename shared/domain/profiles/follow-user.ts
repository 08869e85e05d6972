import { logger } from '../../observability/logger.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { emitNotification } from '../notifications/index.ts';
import { findUserById } from '../users/index.ts';
import { cannotFollowYourself, userNotFound } from './profile-errors.ts';
import { deleteFollow, insertFollow } from './follow-repository.ts';
import { loadReadableProfile } from './profile-user.ts';

export interface FollowResult {
  message: string;
  data: { user_id: number; following: boolean; followers_count: number };
}

/**
 * `POST /profile/{username}/follow`: idempotent (following twice is one follow, answered the same). Following
 * yourself is 400; a profile that is not active cannot be followed (403, as reading it). A new follow emits
 * `new_follower` to the followed member, after the write; a failure to notify is logged, never fails the follow.
 */
export async function followUser(caller: Caller, username: string): Promise<FollowResult> {
  const { user } = await loadReadableProfile(caller, username);
  if (user.id === caller.id) throw cannotFollowYourself();
  const outcome = await insertFollow({ follower_id: caller.id, followed_id: user.id, created_at: nowIso() });
  if (outcome === 'followed') await notifyFollowed(caller, user.id);
  return answer(user.id, true, 'You are now following this member.');
}

/** `DELETE /profile/{username}/follow`: idempotent (not following is answered the same). */
export async function unfollowUser(caller: Caller, username: string): Promise<FollowResult> {
  const { user } = await loadReadableProfile(caller, username);
  if (user.id === caller.id) throw cannotFollowYourself();
  await deleteFollow(caller.id, user.id);
  return answer(user.id, false, 'You are no longer following this member.');
}

/** The answer carries the followed member's count as committed (a consistent read after the write). */
async function answer(userId: number, following: boolean, message: string): Promise<FollowResult> {
  const user = await findUserById(userId, { consistent: true });
  if (user === undefined) throw userNotFound();
  return { message, data: { user_id: userId, following, followers_count: user.followers_count } };
}

async function notifyFollowed(actor: Caller, recipientId: number): Promise<void> {
  try {
    const name = (await findUserById(actor.id))?.display_name || actor.username;
    await emitNotification({
      type: 'new_follower',
      actorId: actor.id,
      recipientId,
      title: `${name} started following you`,
      message: '',
      actionUrl: `/u/${actor.username}`,
      objectId: actor.id,
      objectType: 'user',
    });
  } catch (error) {
    logger.error('could not emit notifications', { what: 'new_follower', error });
  }
}
