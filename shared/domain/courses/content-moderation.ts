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
