import * as v from 'valibot';
import { TOPIC_DISPLAY_STYLES } from '../../vocabulary/topics.ts';
import { getSettings } from '../settings/index.ts';

/** The topic configuration record (contract "Topic configuration"); stored in the `topics_config` settings group. */
export const TopicsConfigSchema = v.object({
  enabled: v.boolean(),
  required_for_posts: v.boolean(),
  allow_multiple: v.boolean(),
  max_topics_per_post: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)),
  user_can_create: v.boolean(),
  display_on_feed: v.boolean(),
  display_style: v.picklist(TOPIC_DISPLAY_STYLES),
});
export type TopicsConfig = v.InferOutput<typeof TopicsConfigSchema>;

/** decisions.md "Topics and feeds": the configuration while nobody has changed it. */
export const DEFAULT_TOPICS_CONFIG: TopicsConfig = {
  enabled: true,
  required_for_posts: false,
  allow_multiple: true,
  max_topics_per_post: 3,
  user_can_create: false,
  display_on_feed: true,
  display_style: 'badge',
};

/** The configuration in force: stored keys over the defaults (one GetItem). */
export async function getTopicsConfig(): Promise<TopicsConfig> {
  const stored = await getSettings('topics_config', DEFAULT_TOPICS_CONFIG);
  const parsed = v.safeParse(TopicsConfigSchema, stored);
  if (!parsed.success) throw new Error('The stored topic configuration is malformed');
  return parsed.output;
}
