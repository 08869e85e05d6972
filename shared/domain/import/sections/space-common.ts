import { spaceSlugGuardKey } from '../../../db/keys/spaces.ts';
import { createdSpaceWrites, membershipWrites, type SpaceItem, type SpaceRole } from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportCourse, ImportSpace } from '../import-schema.ts';
import { ReferenceScope } from '../reference-scope.ts';
import type { BuildContext, FreeKeyProbe } from './section.ts';

/** What the spaces and courses sections share: a course is a space of type `course`, with the same slug namespace. */

/** A member as the file lists it, with where its user reference is (for messages). */
export interface ListedMember {
  readonly user: string;
  readonly role: SpaceRole;
  /** The list entry (`members[1]`) and the user reference in it (`members[1].user`). */
  readonly entry: string;
  readonly reference: string;
}

/**
 * The checks a section of spaces or courses makes before anything is written: `resolve` takes each item in file
 * order (registers its ref, claims its slug, checks the creator and the members, each user once; `more` resolves
 * what else an item holds, such as a course's parts), and `mustBeFree` probes each slug's guard.
 */
export function spaceLikeChecks<T extends ImportSpace | ImportCourse>(
  section: 'spaces' | 'courses',
  membersOf: (item: T, where: string) => readonly ListedMember[],
  more: (item: T, where: string, scope: ReferenceScope) => void = () => {},
) {
  const kind = section === 'spaces' ? 'space' : 'course';
  return {
    resolve(items: readonly T[], scope: ReferenceScope): void {
      items.forEach((item, index) => {
        const where = itemName(section, index, item.ref);
        const members = membersOf(item, where);
        scope.define(kind, item.ref, index, where);
        scope.unique('space-slug', item.slug, where, 'slug');
        if (item.created_by !== undefined) scope.user(item.created_by, `${where}: created_by`);
        for (const member of members) scope.user(member.user, member.reference);
        ReferenceScope.distinct(
          members,
          (member) => member.user,
          (member) => member.entry,
        );
        more(item, where, scope);
      });
    },
    mustBeFree: (items: readonly T[]): FreeKeyProbe[] =>
      items.map((item, i) => ({
        key: spaceSlugGuardKey(item.slug),
        message: `${itemName(section, i, item.ref)}: slug "${item.slug}" is already taken`,
      })),
  };
}

/** The fields of a stored space that spaces and courses fill alike; the creator defaults to the first admin. */
export function spaceFields(
  item: ImportSpace | ImportCourse,
  id: number,
  index: number,
  firstAdmin: string | undefined,
  context: BuildContext,
): Omit<SpaceItem, 'type' | 'settings'> {
  const createdAt = item.created_at ?? context.now;
  const creator = item.created_by ?? firstAdmin;
  return {
    id,
    title: item.title,
    slug: item.slug,
    description: item.description,
    description_rendered: renderMarkdown(item.description),
    logo: item.logo,
    cover_photo: item.cover_photo,
    created_by: creator === undefined ? 0 : context.userId(creator),
    parent_id: null,
    privacy: item.privacy,
    serial: item.serial ?? index + 1,
    status: item.status,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/**
 * The space (or course) with its slug guard and its stats item, whose counters start at 0 and move with each
 * membership (and published feed or lesson); a rollback deletes the stats item only when they are back to 0.
 * Then one unit per member.
 */
export function buildSpaceLike(
  context: BuildContext,
  label: string,
  space: SpaceItem,
  counters: Readonly<Record<string, number>>,
  members: readonly Pick<ListedMember, 'user' | 'role'>[],
): void {
  context.spaces.set(space.id, space);
  const writes = createdSpaceWrites(space, counters);
  context.plan.guard(writes.guard, `${label}: slug "${space.slug}"`);
  context.plan.unit(label, [
    writes.space,
    { item: writes.stats, unchanged: ['members_count', ...Object.keys(counters)] },
  ]);
  for (const member of members) buildMembership(context, label, space, member);
}

/**
 * One member's unit: the membership, counted on the space's stats (`members_count`, and `students_count` for a
 * course's students) with `extra` counts (a student's completions); deleted on rollback only while its role, status
 * and `unchanged` extras are as imported.
 */
export function buildMembership(
  context: BuildContext,
  label: string,
  space: SpaceItem,
  member: Pick<ListedMember, 'user' | 'role'>,
  extra: {
    attributes?: Readonly<Record<string, unknown>>;
    counts?: Readonly<Record<string, number>>;
  } = {},
): void {
  const { item, joined } = membershipWrites({
    space_id: space.id,
    user_id: context.userId(member.user),
    role: member.role,
    status: 'active',
    created_at: space.created_at,
  });
  context.plan.unit(
    label,
    [
      {
        item: { ...item, ...extra.attributes },
        unchanged: [
          'role',
          'status',
          ...Object.keys(extra.attributes ?? {}).filter((name) => name.endsWith('_count')),
        ],
      },
    ],
    [{ key: joined.key, deltas: { ...joined.deltas, ...extra.counts } }],
  );
}
