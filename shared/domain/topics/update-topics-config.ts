import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import type { TopicsConfig } from './topics-config.ts';
import { saveTopicsConfig } from './topics-config-repository.ts';

/**
 * `POST /admin/topics/config`: sets the fields given (validated by the contract), keeps the others, and answers
 * the rule fields now in force. Administrators only.
 */
export async function updateTopicsConfig(caller: Caller, change: Partial<TopicsConfig>) {
  if (!isAdministrator(caller)) throw forbidden();
  const config = await saveTopicsConfig(change);
  return {
    enabled: config.enabled,
    required_for_posts: config.required_for_posts,
    allow_multiple: config.allow_multiple,
    max_topics_per_post: config.max_topics_per_post,
    message: 'Topic configuration has been updated successfully.',
  };
}
