import * as v from 'valibot';
import { passwordPepper } from '../../config/pepper.ts';
import { nextId } from '../../db/sequence.ts';
import type { SequenceName } from '../../db/keys/sequences.ts';
import { nowIso } from '../dates.ts';
import { buildImportWrites, type ImportIdMap } from './build-import-writes.ts';
import { checkExisting } from './check-existing.ts';
import { findLargestTopicSerial, slugify } from '../topics/index.ts';
import { describeIssue, ImportError, itemName } from './import-error.ts';
import { type ImportFile, ImportFileSchema } from './import-schema.ts';
import { resolveReferences } from './resolve-references.ts';
import { writeAllOrNothing } from './write-all-or-nothing.ts';

/** Validates the whole file against the schema; the message names the first offending items. */
export function parseImportFile(raw: unknown): ImportFile {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ImportError('The import file must hold one JSON object.');
  }
  const result = v.safeParse(ImportFileSchema, raw);
  if (!result.success) {
    const messages = result.issues.slice(0, 5).map((issue) => describeIssue(raw, issue));
    const more = result.issues.length > 5 ? `\n(and ${result.issues.length - 5} more problems)` : '';
    throw new ImportError(`${messages.join('\n')}${more}`);
  }
  // A topic without a slug gets the one generated from its title now, so it is checked like a given one.
  result.output.topics.forEach((topic, index) => {
    topic.slug ??= slugify(topic.title);
    if (topic.slug === '') {
      throw new ImportError(
        `${itemName('topics', index, topic.ref)}: slug: cannot be generated from the title; give one`,
      );
    }
  });
  return result.output;
}

/**
 * The operator import (spec/operator-cli.md): validate the whole file, resolve its references, check what it
 * would create is free and what it references exists, and only then allocate ids and write, all or nothing.
 * Any refusal before the write leaves the table untouched.
 */
export async function runImport(raw: unknown): Promise<ImportIdMap> {
  const file = parseImportFile(raw);
  const refs = resolveReferences(file);
  const externalUserIds = await checkExisting(file, refs);

  const lessons = file.courses.reduce((sum, course) => sum + course.lessons.length, 0);
  const [firstUserId, firstSpaceId, firstTopicId, firstPostId, firstCommentId, firstNotificationId] =
    await Promise.all([
      allocate('user', file.users.length),
      allocate('space', file.spaces.length + file.courses.length),
      allocate('topic', file.topics.length),
      allocate('post', lessons + file.feeds.length),
      allocate('comment', file.comments.length),
      allocate('notification', file.notifications.length),
    ]);
  const { writes, output } = buildImportWrites(file, refs, {
    firstUserId,
    firstSpaceId,
    firstTopicId,
    firstPostId,
    firstCommentId,
    firstNotificationId,
    nextTopicSerial: file.topics.some((t) => t.serial === undefined)
      ? (await findLargestTopicSerial()) + 1
      : 1,
    externalUserIds,
    pepper: file.users.length > 0 ? await passwordPepper() : '',
    now: nowIso(),
  });
  await writeAllOrNothing(writes);
  return output;
}

/** One block of ids per sequence; an empty section allocates nothing (no gap). */
const allocate = (name: SequenceName, count: number): Promise<number> =>
  count === 0 ? Promise.resolve(0) : nextId(name, count);
