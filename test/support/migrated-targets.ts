import { readIdSpace } from '../../shared/domain/migrations/id-spaces.ts';
import { migratedRows } from '../../shared/domain/migrations/ledger.ts';

/**
 * Where migrated source rows are on the platform, for the rows some run has counted: groups → space ids, and root
 * activities → feed ids with their migrated comments → comment ids. Tests use it; the
 * workers compute the same ids themselves.
 */
export async function findMigratedSpaces(
  source: string,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  const [migrated, spaces] = await Promise.all([
    migratedRows(source, 'group', groupIds),
    readIdSpace(source, 'space'),
  ]);
  return targetsOf(migrated.rows, (id) => spaces?.targetOf(id));
}

export async function findMigratedActivities(
  source: string,
  rootIds: readonly number[],
): Promise<{ feeds: Map<number, number>; comments: Map<number, number> }> {
  const [migrated, posts, comments] = await Promise.all([
    migratedRows(source, 'activity', rootIds),
    readIdSpace(source, 'post'),
    readIdSpace(source, 'comment'),
  ]);
  return {
    feeds: targetsOf(migrated.rows, (id) => posts?.targetOf(id)),
    comments: targetsOf(migrated.comments, (id) => comments?.targetOf(id)),
  };
}

function targetsOf(ids: Iterable<number>, targetOf: (id: number) => number | undefined): Map<number, number> {
  const answer = new Map<number, number>();
  for (const id of ids) {
    const target = targetOf(id);
    if (target !== undefined) answer.set(id, target);
  }
  return answer;
}
