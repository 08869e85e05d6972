import { publish } from '../../integrations/queue-publisher.ts';
import type { DetachTopicMessage } from '../../messages/index.ts';
import { detachTopicFromFeeds, removeTopicDetachMarker } from './topic-link-repository.ts';
import { findTopicById } from './topic-repository.ts';

/** Links handled per message (about 20 transactions): an invocation stays well inside its timeout. */
export const DETACH_BATCH = 1_000;

/**
 * The `topics` worker's step for a deleted topic: detaches up to DETACH_BATCH of its links, then sends the same
 * message again while any pass still found links, so a link the index delivers late (written just before the
 * delete) is found by the next pass. A pass that finds nothing removes the topic's detach marker: done.
 * Idempotent; a topic that exists is not detached (only a delete sends this message, and ids are never reused).
 */
export async function detachDeletedTopic(message: DetachTopicMessage): Promise<void> {
  if (await findTopicById(message.topic_id)) return;
  const { removed, more } = await detachTopicFromFeeds(message.topic_id, DETACH_BATCH);
  // A failed follow-up fails this message, so SQS redelivers it: detaching never stops half way for good.
  if (more || removed > 0) await publish('topics', message);
  else await removeTopicDetachMarker(message.topic_id);
}
