import * as v from 'valibot';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { type SettingsGroup, settingsKey } from '../../db/keys/settings.ts';
import { getItem } from '../../db/reads.ts';

/** A settings group item holds the keys that were set as flat attributes (`entity` aside). */
const SettingsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(({ pk: _pk, sk: _sk, entity: _entity, ...stored }) => stored),
);

/**
 * A settings group is one item (`SETTINGS` / `<GROUP>`) holding the keys that were set; defaults are merged by
 * the reader, so a new default reaches every stage without a data migration.
 */
export async function getSettings(
  group: SettingsGroup,
  defaults: Readonly<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  const stored = await getItem(settingsKey(group), SettingsItemSchema);
  return { ...defaults, ...stored };
}

/** Sets one key of a group (one UpdateItem; other keys and concurrent writers of other keys are untouched). */
export async function putSetting(group: SettingsGroup, key: string, value: unknown): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: settingsKey(group),
      UpdateExpression: 'SET #key = :value, #entity = :entity',
      ExpressionAttributeNames: { '#key': key, '#entity': 'entity' },
      ExpressionAttributeValues: { ':value': value, ':entity': 'settings' },
    }),
  );
}
