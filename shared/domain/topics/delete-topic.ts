import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { topicNotFound } from './topic-errors.ts';
import { nextUpdatedAt } from './topic-item.ts';
import { detachTopicFromFeeds, hasTopicLinks } from './topic-link-repository.ts';
import { findChildTopics, findTopicById } from './topic-repository.ts';
import { moveChildTopic, removeTopic } from './topic-write-repository.ts';

/** Rounds of "adopt the children, delete" before giving up (each round re-reads; conflicts are rare). */
const MAX_REMOVE_ATTEMPTS = 25;
/** Sweeps after the delete until one finds no link; more means links keep appearing, which they cannot. */
const MAX_FINAL_SWEEPS = 5;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 20 * (attempt + 1)));

/**
 * `DELETE /admin/topics/{id}`: the topic is detached from every feed before the answer (decisions.md "Topics and
 * feeds"), in three steps:
 *
 * 1. While the topic still exists, every link is deleted and the id removed from each post's `topic_ids`, with
 *    `posts_count` moved in the same transactions. An interrupted delete (a timeout) leaves a topic that still
 *    exists with an exact count, and the client's retry finishes the work.
 * 2. Its children move up to its own parent (top level if it had none), then the topic, its slug guard and its
 *    counters go in one transaction, which requires that no child is left (so a child created meanwhile is
 *    adopted, never orphaned). From here, no feed write can link the topic: they require the topic to exist.
 * 3. The link lists are swept again until a sweep finds nothing, for links written just before step 2 that the
 *    first sweep did not see (the lists are index reads, eventually consistent).
 *
 * Feed reads show only topics that exist, so even a link the index delivers later than the last sweep never
 * shows the deleted topic on a feed.
 */
export async function deleteTopic(caller: Caller, topicId: number) {
  if (!isAdministrator(caller)) throw forbidden();
  if (!(await findTopicById(topicId))) throw topicNotFound();

  await detachTopicFromFeeds(topicId, true);
  await removeAdoptingChildren(topicId);
  for (let sweep = 0; sweep < MAX_FINAL_SWEEPS; sweep++) {
    const removed = await detachTopicFromFeeds(topicId, false);
    if (removed === 0 && !(await hasTopicLinks(topicId))) break;
    await pause(sweep);
  }
  return { message: 'Topic has been deleted successfully.' };
}

async function removeAdoptingChildren(topicId: number): Promise<void> {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const topic = await findTopicById(topicId);
    if (!topic) throw topicNotFound();
    for (const child of await findChildTopics(topicId)) {
      // A child that changed meanwhile is read again next round; the delete below refuses while any is left.
      await moveChildTopic(child, topic.parent_id, nextUpdatedAt(child.updated_at));
    }
    if ((await removeTopic(topic)) === 'written') return;
    await pause(attempt);
  }
  throw new Error(`Topic ${topicId} could not be deleted: it kept changing or gaining children`);
}
