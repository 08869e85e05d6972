import { forbidden, notFound } from '../../errors/app-error.ts';
import { logger } from '../../observability/logger.ts';
import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { emitNotification, emitToSpaceStaff } from '../notifications/index.ts';
import { membershipJoinActions, type SpaceItem } from '../spaces/index.ts';
import type { UserItem } from '../users/index.ts';
import { invitationNotFound } from './invitation-errors.ts';
import { acceptInvitationWrites, findInvitationAndSpace, findTokenAndUser } from './invitation-repository.ts';
import { hashInvitationToken, TOKEN_PATTERN } from './invitation-token.ts';

/**
 * `POST /invitations/{token}/accept`: the signed-in account whose e-mail is the invited address joins the space
 * (a course: as a student) and the invitation turns `accepted`; `space_join` goes to the space's admins and
 * moderators, and, when the space is a course the acceptance enrolled them in, `course_enrollment` to the new
 * student from the inviter (decisions.md: the member who enrolled them). An unknown or already used token is 404 `invitation_not_found`; another account's invitation is 403
 * `rest_forbidden`. Refusals change nothing. The token is deleted in the accepting transaction, so two concurrent
 * acceptances join once.
 */
export async function acceptInvitation(
  caller: Caller,
  token: string,
): Promise<{ message: string; space_id: number; status: 'accepted' }> {
  if (!TOKEN_PATTERN.test(token)) throw invitationNotFound();
  const tokenHash = hashInvitationToken(token);
  // Three rounds: the token and the caller's user item; the invitation and its space (one batch, the space named
  // by the token); the transaction. The staff `space_join` goes to are looked up by the notify worker.
  const { token: stored, user } = await findTokenAndUser(tokenHash, caller.id);
  if (!stored) throw invitationNotFound();
  const { invitation, space } = await findInvitationAndSpace(stored);
  if (invitation?.status !== 'pending') throw invitationNotFound();
  if (!user || user.email.toLowerCase() !== invitation.email) {
    throw forbidden('This invitation was sent to another e-mail address.');
  }
  if (!space) throw notFound('not_found', 'The space of this invitation no longer exists.');

  const acceptedAt = nowIso();
  let outcome = await acceptInvitationWrites(
    invitation,
    tokenHash,
    user.id,
    acceptedAt,
    membershipJoinActions(space, user.id, acceptedAt),
  );
  const enrolled = outcome === 'accepted' && space.type === 'course';
  // Joined meanwhile by another way: the invitation is still accepted (and used up), the membership kept as is.
  if (outcome === 'already_member') {
    outcome = await acceptInvitationWrites(invitation, tokenHash, user.id, acceptedAt, []);
  }
  if (outcome === 'used') throw invitationNotFound();
  await notifyStaff(space, user);
  // Only an acceptance that enrolled the student notifies (one already a member was enrolled by another way).
  if (enrolled) await notifyEnrollment(space, user, invitation.inviter_id);
  return { message: `You have joined ${space.title}.`, space_id: space.id, status: 'accepted' };
}

/** `course_enrollment` to the student the acceptance enrolled; a failure is logged, never undoes the enrolment. */
async function notifyEnrollment(course: SpaceItem, student: UserItem, inviterId: number): Promise<void> {
  try {
    await emitNotification({
      recipientId: student.id,
      type: 'course_enrollment',
      actorId: inviterId,
      title: `You are enrolled in ${course.title}`,
      message: `You accepted an invitation and are now enrolled in the course "${course.title}".`,
      actionUrl: `/spaces/${course.slug}`, // a course is a space: the same page as space_join links to
      objectId: course.id,
      objectType: 'course',
    });
  } catch (error) {
    logger.error('could not notify a course enrolment', { courseId: course.id, error });
  }
}

/** `space_join` to the space's admins and moderators; a failure is logged, never undoes the join. */
async function notifyStaff(space: SpaceItem, user: UserItem): Promise<void> {
  try {
    await emitToSpaceStaff(space.id, {
      type: 'space_join',
      actorId: user.id,
      title: `${user.display_name} joined ${space.title}`,
      message: `${user.display_name} accepted an invitation and joined the space "${space.title}".`,
      actionUrl: `/spaces/${space.slug}`,
      objectId: space.id,
      objectType: 'space',
    });
  } catch (error) {
    logger.error('could not notify the space staff of a join', { spaceId: space.id, error });
  }
}
