import { withFreshId } from '../../db/ids.ts';
import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { generatedSlugBase, slugCandidate, slugify } from './slug.ts';
import { duplicateSlug, invalidParent, slugWithoutLetters } from './topic-errors.ts';
import type { TopicItem, TopicStatus } from './topic-item.ts';
import { toTopicResponse } from './topic-mapper.ts';
import { findLargestTopicSerial, findTakenTopicSlugs, findTopicById } from './topic-repository.ts';
import { insertTopic } from './topic-write-repository.ts';

/** The create body as the contract delivers it (defaults applied there). */
export interface CreateTopicInput {
  readonly title: string;
  readonly slug?: string | undefined;
  readonly description: string;
  readonly color: string;
  readonly icon: string;
  /** 0 or null: top level. */
  readonly parent_id: number | null;
  readonly status: TopicStatus;
  readonly serial?: number | undefined;
}

/** Generated-slug candidates checked per read (a hint only: the guard's conditional write decides). */
const CANDIDATES_PER_READ = 10;
/** A title shared by this many topics is not going to get a free generated slug by counting further. */
const MAX_GENERATED_CANDIDATES = 10_000;

/**
 * `POST /admin/topics` (decisions.md "Topics and feeds"). A slug sent is normalised and must be free
 * (`duplicate_slug` otherwise, decided by the slug guard's `attribute_not_exists` in the creating transaction, so
 * twenty concurrent creates with one slug make exactly one topic). Without a slug, the title's slug is used, or
 * the first of `-2`, `-3`… found free. `serial` defaults to one more than the largest.
 */
export async function createTopic(caller: Caller, input: CreateTopicInput) {
  if (!isAdministrator(caller)) throw forbidden();
  const parentId = input.parent_id || null;
  const sentSlug = input.slug === undefined ? undefined : slugify(input.slug);
  if (sentSlug === '') throw slugWithoutLetters();
  // A fast refusal before an id is spent; the transaction's check on the parent is what decides.
  if (parentId !== null && !(await findTopicById(parentId))) throw invalidParent('unknown_parent');

  const serial = input.serial ?? (await findLargestTopicSerial()) + 1;
  const now = nowIso();
  // A drawn id that is already taken (the topic item's own guard) draws another; a taken slug does not.
  const created = await withFreshId((id) => {
    const topic = (slug: string): TopicItem => ({
      id,
      title: input.title,
      title_lc: input.title.toLowerCase(),
      slug,
      description: input.description,
      color: input.color,
      icon: input.icon,
      parent_id: parentId,
      status: input.status,
      serial,
      posts_count: 0,
      created_at: now,
      updated_at: now,
    });
    return sentSlug === undefined ? insertWithGeneratedSlug(topic) : insert(topic(sentSlug));
  });
  if (!created) throw duplicateSlug(sentSlug ?? '');
  return { ...toTopicResponse(created), message: 'Topic has been created successfully.' };
}

/** Writes the topic; undefined when its slug is taken. */
async function insert(topic: TopicItem): Promise<TopicItem | undefined> {
  const outcome = await insertTopic(topic);
  if (outcome === 'parent_missing') throw invalidParent('unknown_parent');
  return outcome === 'written' ? topic : undefined;
}

async function insertWithGeneratedSlug(topic: (slug: string) => TopicItem): Promise<TopicItem> {
  const base = generatedSlugBase(topic('').title);
  for (let first = 1; first <= MAX_GENERATED_CANDIDATES; first += CANDIDATES_PER_READ) {
    const candidates = Array.from({ length: CANDIDATES_PER_READ }, (_, i) => slugCandidate(base, first + i));
    const taken = await findTakenTopicSlugs(candidates);
    for (const candidate of candidates) {
      if (taken.has(candidate)) continue;
      const created = await insert(topic(candidate));
      if (created) return created;
    }
  }
  throw new Error(`No free generated slug for "${base}" after ${MAX_GENERATED_CANDIDATES} candidates`);
}
