import { type Caller, isCourseAdmin, isSpaceModerator, type Membership } from '../auth/index.ts';
import { getSettings } from '../settings/index.ts';

/**
 * Content moderation (contract: "pending comments appear only when content moderation is enabled and the caller
 * can moderate"). The switch is `content_moderation` (`yes`/`no`, default `no`) of the `features` settings group.
 * With it on, lesson comments of people who cannot moderate the course wait as `pending`.
 */
export async function isContentModerationOn(): Promise<boolean> {
  const features = await getSettings('features', { content_moderation: 'no' });
  return features.content_moderation === 'yes';
}

/** Who moderates a course's comments: its admins (and those acting as such) and moderators of the course. */
export const canModerateCourse = (caller: Caller, membership: Membership | undefined): boolean =>
  isCourseAdmin(caller, membership) || isSpaceModerator(caller, membership);
