import * as v from 'valibot';
import { SETTINGS_GROUPS, type SettingsGroup, settingsKey } from '../../db/keys/settings.ts';
import type { KeyedRead } from '../../db/read-together.ts';
import {
  createReplicas,
  readReplicated,
  replicatedItem,
  replicatedRead,
  setReplicated,
} from '../../db/replicated-item.ts';

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

/** `getSettings` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export function settingsRead(
  group: SettingsGroup,
  defaults: Readonly<Record<string, unknown>> = {},
): KeyedRead<Record<string, unknown>> {
  const read = replicatedRead(settingsItem(group));
  return {
    ...read,
    settle: async (found) => {
      const stored = await read.settle(found);
      return { ...defaults, ...(stored && v.parse(SettingsItemSchema, stored)) };
    },
  };
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

/**
 * Creates the copies of every group that has none yet (from what the group held before copies existed). Until a
 * group has copies, each read of it also reads the group's single item; the local stack calls this when it starts,
 * and any settings change does it for its group (`settings:set` once after deploying a stage does it in the cloud).
 */
export async function createSettingsCopies(): Promise<void> {
  await Promise.all(SETTINGS_GROUPS.map((group) => createReplicas(settingsItem(group))));
}
