import { presentKeys } from '../../db/reads.ts';
import { spaceKey } from '../../db/keys/spaces.ts';
import { userKey } from '../../db/keys/users.ts';
import { itemKeyId } from '../../db/partition.ts';
import { transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import type { UploadsImage, UploadsOwner } from '../../integrations/buddypress/uploads-location.ts';
import { userSearchEntryUpdates } from '../users/index.ts';

/** The attribute showing an image: a user's `avatar` / `cover_photo`, a space's `logo` / `cover_photo`. */
const FIELDS: Record<UploadsOwner, Record<UploadsImage, string>> = {
  member: { avatar: 'avatar', cover: 'cover_photo' },
  group: { avatar: 'logo', cover: 'cover_photo' },
};

/**
 * Sets the URL a migration chunk gave a user's or space's image to what the copy turned out to be (`to`: another
 * URL, or '' when nothing was copied), only while it still shows the chunk's (`from`): a member who changed it
 * since keeps theirs. The chunk writes the user or space after sending its images, so the item may not exist yet:
 * that throws, and the message is delivered again later. A member's avatar moves on their search entries too
 * (they carry it), in the same transaction.
 */
export async function repointImage(
  owner: UploadsOwner,
  objectId: number,
  kind: UploadsImage,
  from: string,
  to: string,
): Promise<void> {
  const key = owner === 'member' ? userKey(objectId) : spaceKey(objectId);
  const outcome = await transactWriteIfConditionsHold([
    updateAction(key, {
      UpdateExpression: 'SET #field = :to',
      ConditionExpression: '#field = :from',
      ExpressionAttributeNames: { '#field': FIELDS[owner][kind] },
      ExpressionAttributeValues: { ':from': from, ':to': to },
    }),
    ...(owner === 'member' && kind === 'avatar' ? userSearchEntryUpdates(objectId, { avatar: to }) : []),
  ]);
  if (outcome.written) return;
  if (!(await presentKeys([key])).has(itemKeyId(key)))
    throw new Error(`${owner === 'member' ? 'user' : 'space'} ${objectId} is not written yet`);
}
