import * as v from 'valibot';
import type { SettingsGroup } from '../../db/keys/settings.ts';
import type { KeyedRead } from '../../db/read-together.ts';
import { readReplicated, replicatedRead, setReplicated } from '../../db/replicated-item.ts';
import { SettingsItemSchema, settingsItem } from './settings-repository.ts';

/**
 * The settings domain's reads and writes of a group, as other domains use them: values by key with defaults
 * merged, never the stored item or its copies (settings-repository.ts).
 */

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
