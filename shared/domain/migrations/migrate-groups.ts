import { spaceKey } from '../../db/keys/spaces.ts';
import { nextId } from '../../db/sequence.ts';
import { putAction, transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import type { GroupRow } from '../../integrations/buddypress/source.ts';
import {
  DEFAULT_SPACE_SETTINGS,
  type SpaceItem,
  type SpacePrivacy,
  storedSpace,
  storedSpaceSlugGuard,
  storedSpaceStats,
} from '../spaces/index.ts';
import { renderMarkdown } from '../text/index.ts';
import { slugify } from '../topics/index.ts';
import { type ChunkContext, mapState, sourceHtmlToText } from './chunk-context.ts';
import { ensureUsers } from './ensure-users.ts';
import { createdRunOf, findMaps, type MapItem, mapAction } from './map-repository.ts';

/** Group privacy → space privacy (decisions.md): public → public, private → private, hidden → secret. */
export function privacyOf(status: string): SpacePrivacy | undefined {
  if (status === 'public') return 'public';
  if (status === 'private') return 'private';
  if (status === 'hidden') return 'secret';
  return undefined;
}

/**
 * Groups → spaces, one transaction per group (space, its slug guard, its stats, its map). A slug taken on the
 * platform gets `-<space id>` appended. A status other than the three BuddyPress knows is unmappable.
 */
export async function migrateGroups(context: ChunkContext, rows: readonly GroupRow[]): Promise<void> {
  const { run } = context;
  const maps = await findMaps(
    run.source,
    'group',
    rows.map((row) => row.id),
  );
  const creators = await ensureUsers(
    context,
    rows.map((row) => row.creatorId),
  );
  for (const row of rows) {
    const privacy = privacyOf(row.status);
    if (!privacy) {
      context.fail('groups', row.id, `unknown group status "${row.status}"`);
      continue;
    }
    const map = maps.get(row.id);
    const state = mapState(map, run.run_id);
    if (state === 'this_run') context.count('groups', 'migrated');
    else if (state === 'earlier_run' && context.skipExisting) context.count('groups', 'skipped');
    else if (state === 'earlier_run') {
      await updateGroup(context, row, map!, privacy);
      context.count('groups', 'migrated');
    } else {
      await createGroup(context, row, privacy, creators.get(row.creatorId) ?? 0);
      context.count('groups', 'migrated');
    }
  }
}

async function createGroup(context: ChunkContext, row: GroupRow, privacy: SpacePrivacy, creator: number) {
  const id = await nextId('space');
  const createdAt = context.dateOf(row.dateCreated);
  const description = sourceHtmlToText(row.description);
  const base = slugify(row.slug) || `group-${row.id}`;
  for (const slug of [base, `${base}-${id}`]) {
    const space: SpaceItem = {
      id,
      title: sourceHtmlToText(row.name) || `Group ${row.id}`,
      slug,
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
    const map = { kind: 'group', source_id: row.id, target_id: id, run_id: context.run.run_id, privacy };
    const outcome = await transactWriteIfConditionsHold([
      mapAction(context.run.source, map, 'new'),
      putAction(storedSpaceSlugGuard(slug, id), { ifAbsent: true }),
      putAction(storedSpace(space), { ifAbsent: true }),
      putAction(storedSpaceStats(id, { members_count: 0, posts_count: 0 })),
    ]);
    if (outcome.written) return;
    // Another delivery mapped the group first: it is migrated (by this run).
    if (outcome.failed.includes(0)) return;
  }
  throw new Error(`group ${row.id}: no free slug`);
}

async function updateGroup(context: ChunkContext, row: GroupRow, earlier: MapItem, privacy: SpacePrivacy) {
  const description = sourceHtmlToText(row.description);
  const spaceId = earlier.target_id;
  const map = {
    kind: 'group',
    source_id: row.id,
    target_id: spaceId,
    run_id: context.run.run_id,
    created_run_id: createdRunOf(earlier),
    privacy,
  };
  await transactWriteIfConditionsHold([
    mapAction(context.run.source, map, 'update'),
    updateAction(spaceKey(spaceId), {
      UpdateExpression:
        'SET title = :title, description = :description, description_rendered = :rendered, updated_at = :now',
      ExpressionAttributeValues: {
        ':title': sourceHtmlToText(row.name) || `Group ${row.id}`,
        ':description': description,
        ':rendered': renderMarkdown(description),
        ':now': context.now,
      },
    }),
  ]);
}
