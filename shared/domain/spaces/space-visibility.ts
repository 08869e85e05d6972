import type { FeedVisibility, SpacePrivacy } from '../../vocabulary/spaces.ts';

/**
 * Feeds carry who may see them, so unfiltered lists can filter without reading the space: public spaces (and the
 * global feed) are visible to every user, private and secret ones to members.
 */
export const spaceVisibility = (privacy: SpacePrivacy | null): FeedVisibility =>
  privacy === null || privacy === 'public' ? 'public' : 'members';
