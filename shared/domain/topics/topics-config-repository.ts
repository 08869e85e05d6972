import { getSettings, putSettings } from '../settings/index.ts';
import { parseTopicsConfig, type TopicsConfig } from './topics-config.ts';

/**
 * Sets the given configuration fields on the `topics_config` settings group (every copy, one transaction): fields
 * not given keep their stored value or default, and concurrent changes of other fields are not lost. Answers the
 * configuration now in force (read back, strongly consistent).
 */
export async function saveTopicsConfig(change: Partial<TopicsConfig>): Promise<TopicsConfig> {
  const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  await putSettings('topics_config', given);
  return parseTopicsConfig(await getSettings('topics_config'));
}
