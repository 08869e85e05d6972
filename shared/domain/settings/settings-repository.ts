import * as v from 'valibot';
import { type SettingsGroup, settingsKey } from '../../db/keys/settings.ts';
import { readReplicated, replicatedItem, setReplicated } from '../../db/replicated-item.ts';

/**
 * Copies of each settings group. Most requests read a group (privacy for visibility, topics_config, general,
 * features), so one item would put every request on one partition; the copies spread those reads over
 * `SETTINGS_REPLICAS` partitions. A change writes every copy in one transaction (settings change rarely: the
 * operator CLI, the topics configuration route), and every read is strongly consistent, so each read reflects
 * every completed change (shared/db/replicated-item.ts).
 */
export const SETTINGS_REPLICAS = 20;

const settingsItem = (group: SettingsGroup) => replicatedItem(settingsKey(group), SETTINGS_REPLICAS);

/** A settings group item holds the keys that were set as flat attributes (`entity` aside). */
const SettingsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(({ entity: _entity, ...stored }) => stored),
);

/**
 * A settings group is one logical item (`SETTINGS` / `<GROUP>`, read from one of its copies) holding the keys
 * that were set; defaults are merged by the reader, so a new default reaches every stage without a data migration.
 */
export async function getSettings(
  group: SettingsGroup,
  defaults: Readonly<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  const stored = await readReplicated(settingsItem(group));
  return { ...defaults, ...(stored && v.parse(SettingsItemSchema, stored)) };
}

/**
 * Sets keys of a group on every copy (one transaction; other keys and concurrent writers of other keys are
 * untouched).
 */
export async function putSettings(
  group: SettingsGroup,
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  await setReplicated(settingsItem(group), { ...values, entity: 'settings' });
}

/** Sets one key of a group (see `putSettings`). */
export const putSetting = (group: SettingsGroup, key: string, value: unknown): Promise<void> =>
  putSettings(group, { [key]: value });
