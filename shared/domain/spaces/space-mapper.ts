import type { SpaceItem } from './space-item.ts';

/**
 * The fields every space response shares (a profile's space, an invitation's space, a course read). Dates are left
 * to the caller: the contract shows spaces with ISO timestamps in member-facing lists and `YYYY-MM-DD HH:MM:SS` in
 * administrative shapes.
 */
export const toSpaceCore = (space: SpaceItem) => ({
  id: space.id,
  title: space.title,
  slug: space.slug,
  description: space.description,
  logo: space.logo,
  cover_photo: space.cover_photo,
  created_by: space.created_by,
  parent_id: space.parent_id,
  privacy: space.privacy,
  serial: space.serial,
  status: space.status,
  type: space.type,
});

export type SpaceCore = ReturnType<typeof toSpaceCore>;
