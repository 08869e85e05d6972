import * as v from 'valibot';
import { SETTINGS_GROUPS, type SettingsGroup, settingsKey } from '../../db/keys/settings.ts';
import { createReplicas, replicatedItem } from '../../db/replicated-item.ts';

/**
 * Copies of each settings group. Most requests read a group (privacy for visibility, topics_config, general,
 * features), so one item would put every request on one partition; the copies spread those reads over
 * `SETTINGS_REPLICAS` partitions. A change writes every copy in one transaction (settings change rarely: the
 * operator CLI, the topics configuration route), and every read is strongly consistent, so each read reflects
 * every completed change (shared/db/replicated-item.ts).
 */
export const SETTINGS_REPLICAS = 20;

/** A group's logical item and its copies (settings-groups.ts reads and writes groups through it). */
export const settingsItem = (group: SettingsGroup) => replicatedItem(settingsKey(group), SETTINGS_REPLICAS);

/** A settings group item holds the keys that were set as flat attributes (`entity` aside). */
export const SettingsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(({ entity: _entity, ...stored }) => stored),
);

/**
 * Creates the copies of every group that has none yet (from what the group held before copies existed). Until a
 * group has copies, each read of it also reads the group's single item; the local stack calls this when it starts,
 * and any settings change does it for its group (`settings:set` once after deploying a stage does it in the cloud).
 */
export async function createSettingsCopies(): Promise<void> {
  await Promise.all(SETTINGS_GROUPS.map((group) => createReplicas(settingsItem(group))));
}
