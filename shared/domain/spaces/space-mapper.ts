import { toIsoDateTime } from '../dates.ts';
import type { SpaceItem } from './space-item.ts';

/**
 * The fields every space response shares (a profile's space, an invitation's space, a course read), without its
 * dates: a course's administrative form (`GET /admin/courses/{id}`, a resource of its own) renders them as its
 * contract section does; every space summary takes them from `toSpaceSummary`.
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

/**
 * A space as every space summary shows it (the profile's space list, an invitation's `space`): its core fields and
 * its timestamps in ISO 8601 `YYYY-MM-DDTHH:MM:SS` UTC, the format of the profile responses that list spaces. One
 * mapper, so the same space reads the same in every response (issue 21 item 17).
 */
export const toSpaceSummary = (space: SpaceItem) => ({
  ...toSpaceCore(space),
  created_at: toIsoDateTime(space.created_at),
  updated_at: toIsoDateTime(space.updated_at),
});

export type SpaceSummary = ReturnType<typeof toSpaceSummary>;
