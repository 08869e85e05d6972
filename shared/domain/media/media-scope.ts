import type { FeedVisibility, SpacePrivacy } from '../../vocabulary/spaces.ts';

/**
 * Who may see a media item (decisions.md "Users, profiles and roles"; issue 21, item 1), decided from the object it
 * is attached to at the time it is attached and stored on the item, so lists filter and count by it:
 *
 * - `public`: everyone who may read the uploader's profile: a profile, a published feed or comment everyone may see
 *   (global feed, public space), a public space;
 * - `members`: the members of `visibility_space_id`: a published feed or comment of a private or secret space, or
 *   that space itself;
 * - `uploader`: nobody else: an unattached upload, or one attached to an unpublished feed or comment.
 *
 * The uploader and community moderators always see their items. Every other reader also needs the attached object
 * to be visible to it now (media-visibility.ts), so an object deleted or hidden later hides its media at once.
 */
export const MEDIA_VISIBILITIES = ['public', 'members', 'uploader'] as const;
export type MediaVisibility = (typeof MEDIA_VISIBILITIES)[number];

export interface MediaScope {
  readonly visibility: MediaVisibility;
  readonly visibility_space_id: number | null;
}

export const PUBLIC_SCOPE: MediaScope = { visibility: 'public', visibility_space_id: null };
export const UPLOADER_SCOPE: MediaScope = { visibility: 'uploader', visibility_space_id: null };

/** A feed or comment (same fields on both): its readers, when published. */
export function contentScope(content: {
  readonly status: string;
  readonly space_id: number | null;
  readonly space_visibility: FeedVisibility;
}): MediaScope {
  if (content.status !== 'published') return UPLOADER_SCOPE;
  if (content.space_visibility === 'public' || content.space_id === null) return PUBLIC_SCOPE;
  return { visibility: 'members', visibility_space_id: content.space_id };
}

/** A space: everyone for a public one, else its members (what is shared inside a private space stays there). */
export const spaceScope = (space: { readonly id: number; readonly privacy: SpacePrivacy }): MediaScope =>
  space.privacy === 'public' ? PUBLIC_SCOPE : { visibility: 'members', visibility_space_id: space.id };

/** The counter suffix of a scope others may see (`p`, `m<sid>`); undefined for `uploader`. */
export function scopeCounterSuffix(scope: MediaScope): string | undefined {
  if (scope.visibility === 'public') return 'p';
  if (scope.visibility === 'members' && scope.visibility_space_id !== null)
    return `m${scope.visibility_space_id}`;
  return undefined;
}
