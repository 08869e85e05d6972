import { logger } from '../../observability/logger.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { emitNotification } from '../notifications/index.ts';
import { deleteFollow, insertFollow } from './follow-repository.ts';
import { cannotFollowYourself, userNotFound } from './profile-errors.ts';
import { findProfileAndActor, findProfileRecordConsistent } from './profile-repository.ts';
import { assertReadable, resolveUserId } from './profile-user.ts';

export interface FollowResult {
  message: string;
  data: { user_id: number; following: boolean; followers_count: number };
}

/**
 * `POST /profile/{username}/follow`: idempotent (following twice is one follow, answered the same). Following
 * yourself is 400; a profile that is not active cannot be followed (403, as reading it). A new follow emits
 * `new_follower` to the followed member, after the write; a failure to notify is logged, never fails the follow.
 *
 * Three rounds: the username's guard; the member and the caller (one consistent BatchGetItem: the caller's name
 * for the notification); the transaction. The answer's `followers_count` is the count read plus this request's
 * change: it includes every follow committed before the request; one committed by someone else between the read
 * and the write shows in the next read of the profile (the counter itself is exact: it moves in the follow's
 * transaction).
 */
export async function followUser(caller: Caller, username: string): Promise<FollowResult> {
  const { user, actor } = await findProfileAndActor(await resolveUserId(username), caller.id);
  if (user === undefined) throw userNotFound();
  assertReadable(caller, { user });
  if (user.id === caller.id) throw cannotFollowYourself();
  const outcome = await insertFollow({ follower_id: caller.id, followed_id: user.id, created_at: nowIso() });
  if (outcome === 'followed') await notifyFollowed(caller, actor?.display_name, user.id);
  return answer(user.id, true, user.followers_count + (outcome === 'followed' ? 1 : 0));
}

/**
 * `DELETE /profile/{username}/follow`: idempotent (not following is answered the same). Three rounds (guard; the
 * member, consistent; the transaction); the count answered as for a follow.
 */
export async function unfollowUser(caller: Caller, username: string): Promise<FollowResult> {
  const record = await findProfileRecordConsistent(await resolveUserId(username));
  if (record === undefined) throw userNotFound();
  assertReadable(caller, record);
  const { user } = record;
  if (user.id === caller.id) throw cannotFollowYourself();
  const outcome = await deleteFollow(caller.id, user.id);
  return answer(user.id, false, user.followers_count - (outcome === 'unfollowed' ? 1 : 0));
}

function answer(userId: number, following: boolean, followersCount: number): FollowResult {
  return {
    message: following ? 'You are now following this member.' : 'You are no longer following this member.',
    data: { user_id: userId, following, followers_count: Math.max(0, followersCount) },
  };
}

async function notifyFollowed(
  actor: Caller,
  displayName: string | undefined,
  recipientId: number,
): Promise<void> {
  try {
    const name = displayName || actor.username;
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
