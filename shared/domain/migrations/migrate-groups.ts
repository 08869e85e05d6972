import * as v from 'valibot';
import { spaceKey } from '../../db/keys/spaces.ts';
import { batchGetItems } from '../../db/reads.ts';
import { putAction, type TransactAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { GroupRow } from '../../integrations/buddypress/source.ts';
import {
  createdSpaceWrites,
  DEFAULT_SPACE_SETTINGS,
  type SpaceItem,
  type SpacePrivacy,
  spaceTextRewriteAction,
} from '../spaces/index.ts';
import { nowIso } from '../dates.ts';
import { renderMarkdown } from '../text/index.ts';
import { slugify } from '../topics/index.ts';
import { type ChunkInput, sourceHtmlToText } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';
import { targetIds } from './id-spaces.ts';
import { migratedRows } from './ledger.ts';
import { planImagesOf } from './source-images.ts';
import { resolveUsers } from './user-resolver.ts';

/** Group privacy → space privacy (decisions.md): public → public, private → private, hidden → secret. */
export function privacyOf(status: string): SpacePrivacy | undefined {
  if (status === 'public') return 'public';
  if (status === 'private') return 'private';
  if (status === 'hidden') return 'secret';
  return undefined;
}

/** Groups per creation transaction: the slug guard, the space and its stats each. */
const GROUPS_PER_TRANSACTION = 25;

/**
 * Groups → spaces at their id-space ids. A new group's space, slug guard and stats item are created together
 * (several groups per transaction); a slug taken on the platform gets `-<space id>` appended. A group an earlier
 * run migrated is skipped, or (skip_existing off) its title and description are brought up to date in place. A
 * status other than the three BuddyPress knows is unmappable.
 */
export async function migrateGroups(context: ChunkInput, rows: readonly GroupRow[]): Promise<ChunkEntry[]> {
  const { run } = context;
  const ids = rows.map((row) => row.id);
  const [earlier, spaceIds, resolved] = await Promise.all([
    migratedRows(run.source, 'group', ids, { exceptRun: run.run_id }).then((found) => found.rows),
    targetIds(run.source, 'space', ids, run.run_id),
    resolveUsers(
      context,
      rows.map((row) => row.creatorId),
    ),
  ]);
  const creators = resolved.users;
  const mapped: ChunkEntry[] = [];
  /** The spaces of groups new to the platform, each with its group's source id. */
  const fresh: { space: SpaceItem; groupId: number }[] = [];
  const updates: { row: GroupRow; spaceId: number }[] = [];
  for (const row of rows) {
    const privacy = privacyOf(row.status);
    if (!privacy) mapped.push(entry.failed('groups', row.id, `unknown group status "${row.status}"`));
    else if (!earlier.has(row.id)) {
      const space = newSpace(context, row, spaceIds.of(row.id), privacy, creators.get(row.creatorId) ?? 0);
      fresh.push({ space, groupId: row.id });
      mapped.push(entry.created('groups', row.id));
    } else if (context.skipExisting) mapped.push(entry.row('groups', 'skipped'));
    else updates.push({ row, spaceId: spaceIds.of(row.id) });
  }
  // A retry finds the spaces an earlier delivery created: they are this run's, already whole.
  const existing = context.retry
    ? await existingSpaces(fresh.map(({ space }) => space.id))
    : new Set<number>();
  const toCreate = fresh.filter(({ space }) => !existing.has(space.id));
  // A group's images belong to its creator's media, or (creator unknown) to the administrator running the migration.
  const { images, warnings } = await planImagesOf(
    context,
    'group',
    toCreate.flatMap(({ space, groupId }) => {
      const uploaderId = space.created_by || run.started_by || 0;
      return uploaderId > 0
        ? [{ sourceId: groupId, uploaderId, objectId: space.id, createdAt: space.created_at }]
        : [];
    }),
  );
  await createSpaces(
    context,
    toCreate.map(({ space, groupId }) => {
      const copied = images.get(groupId);
      return {
        ...space,
        logo: copied?.avatarUrl ?? space.logo,
        cover_photo: copied?.coverUrl ?? space.cover_photo,
      };
    }),
  );
  const present = await existingSpaces(updates.map(({ spaceId }) => spaceId));
  return [
    ...resolved.warnings,
    ...mapped,
    ...warnings,
    ...updates.flatMap(({ row, spaceId }) =>
      // Deleted on the platform since the earlier run: it stays deleted.
      present.has(spaceId)
        ? [entry.update(groupUpdate(row, spaceId)), entry.row('groups', 'migrated')]
        : [entry.row('groups', 'skipped')],
    ),
  ];
}

function newSpace(
  context: ChunkInput,
  row: GroupRow,
  id: number,
  privacy: SpacePrivacy,
  creator: number,
): SpaceItem {
  const createdAt = context.dateOf(row.dateCreated);
  const description = sourceHtmlToText(row.description);
  return {
    id,
    title: sourceHtmlToText(row.name) || `Group ${row.id}`,
    slug: slugify(row.slug) || `group-${row.id}`,
    description,
    description_rendered: renderMarkdown(description),
    logo: '',
    cover_photo: '',
    created_by: creator,
    parent_id: null,
    privacy,
    serial: row.id,
    status: 'published',
    type: 'community',
    settings: { ...DEFAULT_SPACE_SETTINGS },
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** The space, its slug guard and its stats, each created only if absent; `migration_run` names this run. */
const creationActions = (context: ChunkInput, space: SpaceItem): TransactAction[] => {
  const writes = createdSpaceWrites(space);
  return [
    putAction(writes.guard, { ifAbsent: true }),
    putAction({ ...writes.space, migration_run: context.run.run_id }, { ifAbsent: true }),
    putAction(writes.stats, { ifAbsent: true }),
  ];
};

async function createSpaces(context: ChunkInput, spaces: readonly SpaceItem[]): Promise<void> {
  // One transaction may name a slug guard once: a group repeating a slug of its batch goes on its own.
  const alone: SpaceItem[] = [];
  const batched: SpaceItem[] = [];
  const slugs = new Set<string>();
  for (const space of spaces) {
    if (slugs.has(space.slug)) alone.push(space);
    else {
      slugs.add(space.slug);
      batched.push(space);
    }
  }
  for (let start = 0; start < batched.length; start += GROUPS_PER_TRANSACTION) {
    const batch = batched.slice(start, start + GROUPS_PER_TRANSACTION);
    const outcome = await transactWriteIfConditionsHold(
      batch.flatMap((space) => creationActions(context, space)),
    );
    // A taken slug (or a space another delivery created meanwhile): each group of the batch on its own.
    if (!outcome.written) for (const space of batch) await createSpace(context, space);
  }
  for (const space of alone) await createSpace(context, space);
}

async function createSpace(context: ChunkInput, space: SpaceItem): Promise<void> {
  for (const slug of [space.slug, `${space.slug}-${space.id}`]) {
    const outcome = await transactWriteIfConditionsHold(creationActions(context, { ...space, slug }));
    if (outcome.written) return;
    if (!(outcome.failed.length === 1 && outcome.failed[0] === 0)) {
      // The space or its stats exist: another delivery of this chunk created it first.
      if ((await existingSpaces([space.id])).has(space.id)) return;
      throw new Error(`space ${space.id}: creation refused (actions ${outcome.failed.join(', ')})`);
    }
  }
  throw new Error(`space ${space.id}: no free slug`);
}

async function existingSpaces(spaceIds: readonly number[]): Promise<Set<number>> {
  if (spaceIds.length === 0) return new Set();
  const found = await batchGetItems(spaceIds.map(spaceKey), v.object({ id: v.number() }), {
    consistent: true,
  });
  return new Set(found.map((space) => space.id));
}

/** skip_existing off: an earlier run's space gets the group's name and description; the rest stays. */
const groupUpdate = (row: GroupRow, spaceId: number): TransactAction =>
  spaceTextRewriteAction(
    spaceId,
    {
      title: sourceHtmlToText(row.name) || `Group ${row.id}`,
      description: sourceHtmlToText(row.description),
    },
    nowIso(),
  );
