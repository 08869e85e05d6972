import { DEFAULT_SPACE_SETTINGS } from '../../spaces/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportSpace } from '../import-schema.ts';
import { buildSpaceLike, type ListedMember, spaceFields, spaceLikeChecks } from './space-common.ts';
import { defineSection } from './section.ts';

const listed = (space: ImportSpace, where: string): ListedMember[] =>
  space.members.map((member, m) => ({
    ...member,
    entry: `${where}: members[${m}]`,
    reference: `${where}: members[${m}].user`,
  }));

/**
 * `spaces`: each community space with its slug guard, its stats item and one unit per member (space-common.ts).
 * Spaces take `space` ids before the file's courses.
 */
export const spacesSection = defineSection({
  name: 'spaces',

  ...spaceLikeChecks('spaces', listed),

  ids: (spaces) => ({ space: spaces.length }),

  build(spaces, context) {
    const output: Record<string, number> = {};
    spaces.forEach((space, i) => {
      const id = context.takeId('space');
      context.setId('space', space.ref, id);
      const firstAdmin = space.members.find((member) => member.role === 'admin')?.user;
      buildSpaceLike(
        context,
        itemName('spaces', i, space.ref),
        {
          ...spaceFields(space, id, i, firstAdmin, context),
          type: 'community',
          settings: { ...DEFAULT_SPACE_SETTINGS, ...space.settings },
        },
        {},
        space.members,
      );
      output[space.ref] = id;
    });
    return output;
  },
});
