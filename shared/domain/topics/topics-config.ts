import * as v from 'valibot';
import {
  MAX_TOPICS_PER_POST_MAX,
  MAX_TOPICS_PER_POST_MIN,
  TOPIC_DISPLAY_STYLES,
} from '../../vocabulary/topics.ts';
import { mapRead } from '../../db/read-together.ts';
import { getSettings, settingsRead } from '../settings/index.ts';

/** The topic configuration record (contract "Topic configuration"); stored in the `topics_config` settings group. */
export const TopicsConfigSchema = v.object({
  enabled: v.boolean(),
  required_for_posts: v.boolean(),
  allow_multiple: v.boolean(),
  max_topics_per_post: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(MAX_TOPICS_PER_POST_MIN),
    v.maxValue(MAX_TOPICS_PER_POST_MAX),
  ),
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
  return parseTopicsConfig(await getSettings('topics_config'));
}

/** `getTopicsConfig` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const topicsConfigRead = () => mapRead(settingsRead('topics_config'), parseTopicsConfig);

/** The stored keys of the `topics_config` group over the defaults; a malformed stored value fails loudly. */
export function parseTopicsConfig(stored: Readonly<Record<string, unknown>>): TopicsConfig {
  const parsed = v.safeParse(TopicsConfigSchema, { ...DEFAULT_TOPICS_CONFIG, ...stored });
  if (!parsed.success) throw new Error('The stored topic configuration is malformed');
  return parsed.output;
}
