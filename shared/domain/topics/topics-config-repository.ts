import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { settingsKey } from '../../db/keys/settings.ts';
import { parseTopicsConfig, type TopicsConfig } from './topics-config.ts';

/**
 * Sets the given configuration fields (one UpdateItem on the `topics_config` settings group, `ALL_NEW`): fields
 * not given keep their stored value or default, and concurrent changes of other fields are not lost. Answers the
 * configuration now in force.
 */
export async function saveTopicsConfig(change: Partial<TopicsConfig>): Promise<TopicsConfig> {
  const names: Record<string, string> = { '#entity': 'entity' };
  const values: Record<string, unknown> = { ':entity': 'settings' };
  const sets = ['#entity = :entity'];
  Object.entries(change).forEach(([name, value], index) => {
    if (value === undefined) return;
    names[`#k${index}`] = name;
    values[`:v${index}`] = value;
    sets.push(`#k${index} = :v${index}`);
  });
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: settingsKey('topics_config'),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  const { pk: _pk, sk: _sk, entity: _entity, ...stored } = result.Attributes ?? {};
  return parseTopicsConfig(stored);
}
