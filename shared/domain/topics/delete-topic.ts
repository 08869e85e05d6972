import { forbidden } from '../../errors/app-error.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { topicNotFound } from './topic-errors.ts';
import { nextUpdatedAt } from './topic-item.ts';
import { isTopicDetachPending } from './topic-link-repository.ts';
import { findChildTopics, findTopicById } from './topic-repository.ts';
import { moveChildTopic, removeTopic } from './topic-write-repository.ts';

/** Rounds of "adopt the children, delete" before giving up (each round re-reads; conflicts are rare). */
const MAX_REMOVE_ATTEMPTS = 25;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 20 * (attempt + 1)));

/**
 * `DELETE /admin/topics/{id}`, in time that does not grow with the topic's feeds:
 *
 * 1. Its children move up to its own parent (top level if it had none), then the topic, its slug guard, its
 *    counters and search entries go in one transaction that also puts its detach marker, and which requires that
 *    no child is left (so a child created meanwhile is adopted, never orphaned). From here no feed write can link
 *    the topic (they require it to exist), and every read treats it as gone: feed reads show only topics that
 *    exist, and a `topics=` filter by it answers as for an unknown topic (decisions.md: no later read shows it).
 * 2. A `topics` message hands the detaching (links and each post's `topic_ids`) to the worker
 *    (detach-deleted-topic.ts), which removes the marker when done. Should that send fail, the client's retry
 *    finds the marker (the topic answers 404 as deleted) and sends it again.
 */
export async function deleteTopic(caller: Caller, topicId: number) {
  if (!isAdministrator(caller)) throw forbidden();
  if ((await removeAdoptingChildren(topicId)) === 'absent') {
    if (await isTopicDetachPending(topicId)) await publish('topics', { topic_id: topicId });
    throw topicNotFound();
  }
  await publish('topics', { topic_id: topicId });
  return { message: 'Topic has been deleted successfully.' };
}

async function removeAdoptingChildren(topicId: number): Promise<'removed' | 'absent'> {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    // The topic and its children are read side by side (the children's Query needs only the id): one round.
    const [topic, children] = await Promise.all([findTopicById(topicId), findChildTopics(topicId)]);
    if (!topic) {
      if (attempt === 0) return 'absent';
      throw topicNotFound(); // deleted meanwhile by another request
    }
    for (const child of children) {
      // A child that changed meanwhile is read again next round; the delete below refuses while any is left.
      await moveChildTopic(child, topic.parent_id, nextUpdatedAt(child.updated_at));
    }
    if ((await removeTopic(topic)) === 'written') return 'removed';
    await pause(attempt);
  }
  throw new Error(`Topic ${topicId} could not be deleted: it kept changing or gaining children`);
}
