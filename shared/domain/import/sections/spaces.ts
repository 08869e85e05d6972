import { spaceSlugGuardKey } from '../../../db/keys/spaces.ts';
import {
  DEFAULT_SPACE_SETTINGS,
  type SpaceItem,
  storedSpace,
  storedSpaceSlugGuard,
  storedSpaceStats,
} from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { itemName } from '../import-error.ts';
import { ReferenceScope } from '../reference-scope.ts';
import { buildMembers } from './memberships.ts';
import { defineSection } from './section.ts';

/** Counters on a space's stats item that other writes move; a rollback deletes it only when they are back to 0. */
export const SPACE_COUNTERS = ['members_count', 'posts_count'] as const;

/**
 * `spaces`: each community space with its slug guard, its stats item (counters start at 0 and move with each
 * membership and published feed) and one unit per member. Spaces and courses share one slug namespace and the
 * `space` sequence (spaces first).
 */
export const spacesSection = defineSection({
  name: 'spaces',

  resolve(spaces, scope) {
    spaces.forEach((space, i) => {
      const where = itemName('spaces', i, space.ref);
      scope.define('space', space.ref, i, where);
      scope.unique('space-slug', space.slug, where, 'slug');
      if (space.created_by !== undefined) scope.user(space.created_by, `${where}: created_by`);
      space.members.forEach((member, m) => {
        scope.user(member.user, `${where}: members[${m}].user`);
      });
      ReferenceScope.distinct(
        space.members.map((member) => member.user),
        (m) => `${where}: members[${m}]`,
      );
    });
  },

  mustBeFree: (spaces) =>
    spaces.map((space, i) => ({
      key: spaceSlugGuardKey(space.slug),
      message: `${itemName('spaces', i, space.ref)}: slug "${space.slug}" is already taken`,
    })),

  ids: (spaces) => ({ space: spaces.length }),

  build(spaces, context) {
    const output: Record<string, number> = {};
    spaces.forEach((space, i) => {
      const id = context.takeId('space');
      context.setId('space', space.ref, id);
      const label = itemName('spaces', i, space.ref);
      const createdAt = space.created_at ?? context.now;
      const admin = space.members.find((member) => member.role === 'admin')?.user;
      const creator = space.created_by ?? admin;
      const item: SpaceItem = {
        id,
        title: space.title,
        slug: space.slug,
        description: space.description,
        description_rendered: renderMarkdown(space.description),
        logo: space.logo,
        cover_photo: space.cover_photo,
        created_by: creator === undefined ? 0 : context.userId(creator),
        parent_id: null,
        privacy: space.privacy,
        serial: space.serial ?? i + 1,
        status: space.status,
        type: 'community',
        settings: { ...DEFAULT_SPACE_SETTINGS, ...space.settings },
        created_at: createdAt,
        updated_at: createdAt,
      };
      context.spaces.set(id, item);
      context.plan.guard(storedSpaceSlugGuard(space.slug, id), `${label}: slug "${space.slug}"`);
      context.plan.unit(label, [
        storedSpace(item),
        { item: storedSpaceStats(id, { members_count: 0, posts_count: 0 }), unchanged: SPACE_COUNTERS },
      ]);
      buildMembers(context, id, space.members, createdAt, label);
      output[space.ref] = id;
    });
    return output;
  },
});
