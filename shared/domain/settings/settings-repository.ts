import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { type SettingsGroup, settingsKey } from '../../db/keys.ts';

/**
 * A settings group is one item (`SETTINGS` / `<GROUP>`) holding the keys that were set; defaults are merged by
 * the reader, so a new default reaches every stage without a data migration.
 */
export async function getSettings(
  group: SettingsGroup,
  defaults: Readonly<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: settingsKey(group) }));
  const { pk: _pk, sk: _sk, entity: _entity, ...stored } = result.Item ?? {};
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
