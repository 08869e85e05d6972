import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { slugify } from './slug.ts';
import { duplicateSlug, invalidParent, slugWithoutLetters, topicNotFound } from './topic-errors.ts';
import { checkNewParent } from './topic-hierarchy.ts';
import { HIERARCHY_VERSION, nextUpdatedAt, type TopicItem, type TopicStatus } from './topic-item.ts';
import { toTopicUpdateResponse } from './topic-mapper.ts';
import { findTopicById, getTopicStats } from './topic-repository.ts';
import { saveTopic } from './topic-write-repository.ts';

/** The update body as the contract delivers it: only the fields sent are present. */
export interface UpdateTopicInput {
  readonly title?: string | undefined;
  readonly slug?: string | undefined;
  readonly description?: string | undefined;
  readonly color?: string | undefined;
  readonly icon?: string | undefined;
  /** 0 or null: top level. */
  readonly parent_id?: number | null | undefined;
  readonly status?: TopicStatus | undefined;
  readonly serial?: number | undefined;
}

/** Concurrent updates of one topic each retry on the latest state; this many rounds means something is stuck. */
const MAX_ATTEMPTS = 25;

/**
 * `PUT /admin/topics/{id}`: a partial update applied onto the latest state. The write is conditioned on the
 * `updated_at` it read, so two concurrent updates never overwrite each other blindly: the loser re-reads and
 * applies its fields again. A title change keeps the slug; a slug sent moves the slug guard in the same
 * transaction (`duplicate_slug` when another topic holds it). A new parent must exist and may not be the topic or
 * one of its descendants; status and parent changes move the stats counters in the same transaction.
 */
export async function updateTopic(caller: Caller, topicId: number, input: UpdateTopicInput) {
  if (!isAdministrator(caller)) throw forbidden();
  const sentSlug = input.slug === undefined ? undefined : slugify(input.slug);
  if (sentSlug === '') throw slugWithoutLetters();

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await findTopicById(topicId);
    if (!before) throw topicNotFound();
    const after = applyChanges(before, input, sentSlug);

    // Only a move under another topic can close a cycle; it is checked against one hierarchy version.
    let hierarchyVersion: number | undefined;
    if (after.parent_id !== null && after.parent_id !== before.parent_id) {
      hierarchyVersion = (await getTopicStats({ consistent: true }))[HIERARCHY_VERSION] ?? 0;
      const check = await checkNewParent(topicId, after.parent_id, async (id) => {
        const topic = await findTopicById(id);
        return topic === undefined ? undefined : topic.parent_id;
      });
      if (!check.ok) throw invalidParent(check.reason);
    }

    const outcome = await saveTopic(before, after, hierarchyVersion);
    if (outcome === 'written') {
      return { ...toTopicUpdateResponse(after), message: 'Topic has been updated successfully.' };
    }
    if (outcome === 'slug_taken') throw duplicateSlug(after.slug);
    // 'changed' (another write won) or 'parent_missing' (the parent was deleted meanwhile): re-read and decide.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * (attempt + 1)));
  }
  throw new Error(`Topic ${topicId} kept changing during ${MAX_ATTEMPTS} update attempts`);
}

function applyChanges(before: TopicItem, input: UpdateTopicInput, sentSlug: string | undefined): TopicItem {
  const title = input.title ?? before.title;
  return {
    ...before,
    title,
    title_lc: title.toLowerCase(),
    slug: sentSlug ?? before.slug,
    description: input.description ?? before.description,
    color: input.color ?? before.color,
    icon: input.icon ?? before.icon,
    parent_id: input.parent_id === undefined ? before.parent_id : input.parent_id || null,
    status: input.status ?? before.status,
    serial: input.serial ?? before.serial,
    updated_at: nextUpdatedAt(before.updated_at),
  };
}
